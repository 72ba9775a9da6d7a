import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import { createPublicClient, createTestClient, createWalletClient, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createBatchSettlement, facilitatorClientOf } from "../../../core/x402/schemes/batch-settlement/settlement.ts";
import { devnetChain, startDevnet, usdcBalance, type Devnet } from "../../../core/x402/devnet/index.ts";
import { createX402Facilitator } from "../../../core/x402/facilitator.ts";

let devnet: Devnet;
before(async () => {
  devnet = await startDevnet();
});
after(async () => {
  await devnet?.stop();
});

const PRICE = "1000"; // $0.001
const channelConfigTuple =
  "(address payer, address payerAuthorizer, address receiver, address receiverAuthorizer, address token, uint40 withdrawDelay, bytes32 salt)";
const batchSettlementAbi = parseAbi([
  `function initiateWithdraw(${channelConfigTuple} config, uint128 amount)`,
  `function finalizeWithdraw(${channelConfigTuple} config)`,
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
]);
const DEPOSIT = 1_500_000n;

function rail() {
  const facilitator = facilitatorClientOf(
    createX402Facilitator({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      relayerKey: devnet.accounts.relayer.privateKey,
    }),
    devnet.network,
  );
  return createBatchSettlement({
    network: devnet.network,
    payTo: devnet.accounts.payTo.address,
    asset: devnet.usdc.address,
    assetDomain: { name: devnet.usdc.name, version: devnet.usdc.version },
    decimals: devnet.usdc.decimals,
    facilitator,
    authorizerKey: devnet.accounts.payTo.privateKey,
  });
}

function payer(privateKey = devnet.accounts.payer.privateKey) {
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const scheme = new BatchClient(toClientEvmSigner(privateKeyToAccount(privateKey), reader), {
    depositStrategy: () => DEPOSIT.toString(),
  });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  return { client, scheme, reader };
}

async function pay(
  r: ReturnType<typeof rail>,
  p: ReturnType<typeof payer>,
  requirement: PaymentRequirements,
): Promise<{ payload: PaymentPayload; granted: boolean }> {
  const required = await r.server.createPaymentRequiredResponse([requirement], { url: "http://service.test/v1/hash" });
  const payload = await p.client.createPaymentPayload(required);
  const held = await r.hold(payload, requirement);
  if (!("commit" in held)) return { payload, granted: false };
  const settled = await held.commit(requirement.amount);
  await p.client.handlePaymentResponse({ paymentPayload: payload, requirements: requirement, settleResponse: settled });
  return { payload, granted: settled.success };
}

test("batch-settlement: 1,000 vouchers on one channel, claimed in a few transactions, the rest refunded to the wei", async () => {
  const r = rail();
  const p = payer();
  const requirement = await r.requirements(PRICE);
  const payerBefore = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payer.address);
  const payToBefore = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address);
  let granted = 0;
  for (let i = 0; i < 1000; i++) if ((await pay(r, p, requirement)).granted) granted++;
  assert.equal(granted, 1000);

  const claimed = await r.manager.claimAndSettle({ maxClaimsPerBatch: 100 });
  const transactions = claimed.claims.length + (claimed.settle ? 1 : 0);
  assert.ok(transactions <= 10, `${transactions} transactions`);
  const payToAfter = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address);
  assert.equal(payToAfter - payToBefore, 1000n * BigInt(PRICE));

  const refunds = await r.manager.refund();
  assert.equal(refunds.length, 1);
  const payerAfter = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payer.address);
  assert.equal(payerBefore - payerAfter, 1000n * BigInt(PRICE));
  const escrow = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, BATCH_SETTLEMENT_ADDRESS);
  assert.equal(escrow, 0n);
});

test("batch-settlement: the claim timer claims what was charged and reports each claim; stop claims and settles what is left", async () => {
  const r = rail();
  const p = payer(devnet.accounts.others[5].privateKey);
  const requirement = await r.requirements(PRICE);
  const payToBefore = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address);
  const first = await pay(r, p, requirement);
  for (let i = 1; i < 3; i++) assert.equal((await pay(r, p, requirement)).granted, true);
  const channelId = (first.payload.payload as { voucher: { channelId: string } }).voucher.channelId;
  const claimed = new Promise<{ vouchers: number }>((resolve) => r.start({ claimIntervalSecs: 1, onClaim: resolve }));
  assert.equal((await claimed).vouchers, 1);
  assert.equal((await r.scheme.getStorage().get(channelId))?.totalClaimed, "3000");
  assert.equal((await pay(r, p, requirement)).granted, true);
  await r.stop(true);
  const payToAfter = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address);
  assert.equal(payToAfter - payToBefore, 4n * BigInt(PRICE));
});

test("batch-settlement: a payer the service stops answering reclaims the unclaimed deposit after the withdraw delay, and vouchers claimed in the grace period still pay", async () => {
  const r = rail();
  const key = devnet.accounts.others[6].privateKey;
  const account = privateKeyToAccount(key);
  const p = payer(key);
  const requirement = await r.requirements(PRICE);
  const before = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, account.address);
  const first = await pay(r, p, requirement);
  for (let i = 1; i < 10; i++) assert.equal((await pay(r, p, requirement)).granted, true);
  const config = (first.payload.payload as { channelConfig: Record<string, unknown> }).channelConfig;
  const channelId = (first.payload.payload as { voucher: { channelId: `0x${string}` } }).voucher.channelId;
  const chain = devnetChain(devnet.rpcUrl);
  const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl), account });
  const reader = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const testClient = createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) });
  const channelConfig = { ...config, withdrawDelay: Number(config.withdrawDelay), salt: config.salt } as never;
  const write = async (functionName: "initiateWithdraw" | "finalizeWithdraw", args: readonly unknown[]) =>
    reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: batchSettlementAbi,
        functionName,
        args,
      } as never),
    });

  assert.equal((await write("initiateWithdraw", [channelConfig, DEPOSIT])).status, "success");
  await assert.rejects(
    reader.simulateContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: batchSettlementAbi,
      functionName: "finalizeWithdraw",
      args: [channelConfig],
      account,
    }),
  );
  // The service still claims what it was paid during the grace period.
  const claims = await r.manager.claimAndSettle();
  assert.equal(claims.claims.length, 1);
  await testClient.increaseTime({ seconds: 901 });
  await testClient.mine({ blocks: 1 });
  assert.equal((await write("finalizeWithdraw", [channelConfig])).status, "success");
  const after = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, account.address);
  assert.equal(before - after, 10n * BigInt(PRICE));
  const [balance, totalClaimed] = (await reader.readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: batchSettlementAbi,
    functionName: "channels",
    args: [channelId],
  })) as readonly [bigint, bigint];
  assert.equal(balance - totalClaimed, 0n);
});
