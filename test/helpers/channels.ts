import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import {
  computeChannelId,
  createBatchSettlementEIP3009DepositPayload,
  signVoucher,
} from "@x402/evm/batch-settlement/client";
import { createPublicClient, createTestClient, createWalletClient, http, parseAbi, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { encodeHeader } from "../../core/x402/challenge.ts";
import { devnetChain, type Devnet } from "../../core/x402/devnet/index.ts";

const channelConfigTuple =
  "(address payer, address payerAuthorizer, address receiver, address receiverAuthorizer, address token, uint40 withdrawDelay, bytes32 salt)";
export const escrowAbi = parseAbi([
  `function deposit(${channelConfigTuple} config, uint128 amount, address collector, bytes collectorData)`,
  `function initiateWithdraw(${channelConfigTuple} config, uint128 amount)`,
  `function finalizeWithdraw(${channelConfigTuple} config)`,
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
  "function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)",
]);

/** A channel config as the escrow's ABI takes it (the payload carries `withdrawDelay` as a number). */
export interface EscrowChannelConfig {
  payer: Hex;
  payerAuthorizer: Hex;
  receiver: Hex;
  receiverAuthorizer: Hex;
  token: Hex;
  withdrawDelay: number;
  salt: Hex;
}

/** The devnet's escrow, called as a payer calls it directly, and anvil's clock, moved forward without waiting. */
export function escrowOn(devnet: Devnet) {
  const chain = devnetChain(devnet.rpcUrl);
  const reader = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const testClient = createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) });
  return {
    reader,
    /** Sends one transaction from `account` and waits for its receipt; a revert throws. */
    async send(
      account: PrivateKeyAccount,
      call: { address?: Hex; abi?: unknown; functionName: string; args: unknown[] },
    ) {
      const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl), account });
      const hash = await wallet.writeContract({ address: BATCH_SETTLEMENT_ADDRESS, abi: escrowAbi, ...call } as never);
      const receipt = await reader.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`${call.functionName} reverted`);
      return receipt;
    },
    async channel(channelId: Hex) {
      const [balance, totalClaimed] = await reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: "channels",
        args: [channelId],
      });
      return { balance, totalClaimed };
    },
    /** Moves the chain's clock (the next block's timestamp) `seconds` ahead and mines that block. */
    async advance(seconds: number) {
      await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks: 1 });
    },
  };
}

type Terms = PaymentRequirements & { extra: { receiverAuthorizer: Hex; withdrawDelay: number } };
type Fetcher = { fetch: typeof fetch };

/** The route's batch-settlement offer, read from its 402. */
export async function batchTerms(service: Fetcher, path: string): Promise<Terms> {
  const res = await service.fetch(`http://127.0.0.1:4021${path}`);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  return required.accepts.find((a: PaymentRequirements) => a.scheme === "batch-settlement");
}

/**
 * A channel paid by hand, as an attacker pays: deposits and vouchers signed with @x402/evm's client functions by
 * `account` (the channel's payerAuthorizer), sent as built, the cumulative amount counted here. `payer` is the
 * payer the channel names (the signer's own address unless told otherwise).
 */
export function channelPayer(devnet: Devnet, account: PrivateKeyAccount, o: { salt: Hex; payer?: Hex }) {
  const signer = toClientEvmSigner(account, escrowOn(devnet).reader);
  let charged = 0n;
  const configOf = (terms: Terms): EscrowChannelConfig => ({
    payer: o.payer ?? account.address,
    payerAuthorizer: account.address,
    receiver: terms.payTo as Hex,
    receiverAuthorizer: terms.extra.receiverAuthorizer,
    token: terms.asset as Hex,
    withdrawDelay: Number(terms.extra.withdrawDelay),
    salt: o.salt,
  });

  async function payload(service: Fetcher, path: string, deposit?: bigint): Promise<PaymentPayload> {
    const accepted = await batchTerms(service, path);
    const config = configOf(accepted);
    const max = String(charged + BigInt(accepted.amount));
    const inner = deposit
      ? (await createBatchSettlementEIP3009DepositPayload(signer, 2, accepted, config, String(deposit), max)).payload
      : {
          type: "voucher",
          channelConfig: config,
          voucher: await signVoucher(signer, computeChannelId(config, devnet.network), max, devnet.network),
        };
    return { x402Version: 2, accepted, payload: inner } as PaymentPayload;
  }

  return {
    /** The channel's config under `terms` (any route's offer: they differ only in amount). */
    configOf,
    channelIdOf: (terms: Terms) => computeChannelId(configOf(terms), devnet.network) as Hex,
    charged: () => charged,
    /** Pays `path` with the next voucher (with a deposit of `deposit` when given); the status and the body. */
    async pay(service: Fetcher, path = "/v1/probe", deposit?: bigint) {
      const signed = await payload(service, path, deposit);
      const res = await service.fetch(`http://127.0.0.1:4021${path}`, {
        headers: { "payment-signature": encodeHeader(signed) },
      });
      const body = await res.text();
      if (res.status === 200) charged += BigInt(signed.accepted.amount);
      return { status: res.status, body };
    },
  };
}
