import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const DEPOSIT = 1_500_000n;
const PRICE = 1000n;

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { plugins: [probePlugin], batch: {} });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

function voucherPayer(privateKey = devnet.accounts.payer.privateKey) {
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const scheme = new BatchClient(toClientEvmSigner(privateKeyToAccount(privateKey), reader), {
    depositStrategy: () => DEPOSIT.toString(),
  });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  // Only the voucher option: the 402 also offers exact.
  client.registerPolicy((_version, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  return { fetch: wrapFetchWithPayment(service.fetch, client), scheme };
}

test("batch-settlement: the 402 offers a voucher option beside exact, as @x402/evm's server writes it", async () => {
  const res = await service.fetch(url("/v1/probe"));
  assert.equal(res.status, 402);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  const schemes = required.accepts.map((a: { scheme: string }) => a.scheme);
  assert.deepEqual(schemes, ["exact", "batch-settlement"]);
  const ours = required.accepts[1];
  const theirs = await service.batch!.requirements(String(PRICE));
  assert.deepEqual(ours, theirs);
});

test("batch-settlement: the real client pays 1,000 calls on one channel; claims move exactly the sum in at most 10 transactions; the payer's refund returns the rest to the wei", async () => {
  const { fetch, scheme } = voucherPayer();
  const payer = devnet.accounts.payer.address;
  const payTo = devnet.accounts.payTo.address;
  const [payerBefore, payToBefore] = [await chain.balance(payer), await chain.balance(payTo)];
  const runsBefore = handlerRuns.count;
  let answers = 0;
  for (let i = 0; i < 1000; i++) {
    const res = await fetch(url(`/v1/probe?echo=${i}`));
    const body = await res.json();
    if (res.status === 200 && body.data.echo === String(i)) answers++;
  }
  assert.equal(answers, 1000);
  assert.equal(handlerRuns.count - runsBefore, 1000);

  const { claims, settle } = await service.batch!.manager.claimAndSettle({ maxClaimsPerBatch: 100 });
  const transactions = claims.length + (settle ? 1 : 0);
  assert.ok(transactions >= 2 && transactions <= 10, `${transactions} transactions`);
  assert.equal((await chain.balance(payTo)) - payToBefore, 1000n * PRICE);

  const refund = await scheme.refund(url("/v1/probe"), { fetch: service.fetch });
  assert.equal(refund.success, true);
  assert.equal(payerBefore - (await chain.balance(payer)), 1000n * PRICE);
  assert.equal(await chain.balance(BATCH_SETTLEMENT_ADDRESS), 0n);
});

test("batch-settlement: a payer that lost its channel state is resynced by the corrective 402 and pays on, charged once", async () => {
  const key = devnet.accounts.others[5].privateKey;
  const first = voucherPayer(key);
  for (let i = 0; i < 3; i++) assert.equal((await first.fetch(url("/v1/probe"))).status, 200);
  const runs = handlerRuns.count;
  const amnesiac = voucherPayer(key);
  const res = await amnesiac.fetch(url("/v1/probe?echo=again"));
  assert.equal(res.status, 200);
  assert.equal((await res.json()).data.echo, "again");
  assert.equal(handlerRuns.count - runs, 1);
  const channels = await service.batch!.scheme.getStorage().list();
  const mine = channels.find((c) => c.channelConfig.payer === privateKeyToAccount(key).address);
  assert.equal(mine?.chargedCumulativeAmount, String(4n * PRICE));
});
