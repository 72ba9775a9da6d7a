import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetChain, testUsdcAbi } from "../../../core/x402/devnet/index.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { blockNow, transfersTo } from "../../helpers/rail.ts";
import { payerOf, type Way } from "../../helpers/ways.ts";
import { halves, writesPlugin } from "../../helpers/writes-plugin.ts";

/**
 * An option whose token counts 18 decimals (X402_<NAME>_DECIMALS=18): prices, what a pay-as-used call used and
 * what it settles are in the token's units (10^12 per USDC atomic unit), credits stay in USDC's six decimals.
 */
type Service = Awaited<ReturnType<typeof startPaidService>>;
const SCALE = 10n ** 12n;
let devnet: Devnet;
let service: Service;
let settleTimesOut = false;

/** Settles for real, then (when asked) loses the answer: the settlement is pending until the chain is read. */
const losingAnswers = (real: Facilitator): Facilitator => ({
  verify: (payload, requirements) => real.verify(payload, requirements),
  async settle(payload, requirements) {
    const settled = await real.settle(payload, requirements);
    if (settleTimesOut) throw Object.assign(new Error("facilitator request timed out"), { name: "TimeoutError" });
    return settled;
  },
});

before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, {
    plugins: [probePlugin, writesPlugin],
    decimals: 18,
    upto: true,
    batch: {},
    facilitator: losingAnswers,
  });
  // A dollar of an 18-decimal token is 10^18 units: give the payers a thousand.
  const chain = devnetChain(devnet.rpcUrl);
  const owner = createWalletClient({
    chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.relayer.privateKey),
  });
  const reader = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  for (const other of devnet.accounts.others.slice(0, 4)) {
    const hash = await owner.writeContract({
      address: devnet.usdc.address,
      abi: testUsdcAbi,
      functionName: "mint",
      args: [other.address, 1000n * 10n ** 18n],
    });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const payers = new Map<string, ReturnType<typeof payerOf>>();
/** One payer per way and account, so that a voucher payer keeps its channel's state between calls. */
const payer = (way: Way, index: number) => {
  const key = `${way}:${index}`;
  if (!payers.has(key))
    payers.set(
      key,
      payerOf(devnet, privateKeyToAccount(devnet.accounts.others[index].privateKey), way, { deposit: 10n ** 18n }),
    );
  return payers.get(key)!;
};
const probes = (outcomes: string[]) => ({
  path: "/v1/batch",
  method: "POST" as const,
  args: { calls: outcomes.map((outcome) => ({ path: "/v1/probe", params: { outcome } })) },
});
const writes = (tag: string) => ({
  path: "/v1/batch",
  method: "POST" as const,
  args: {
    calls: [
      { path: "/v1/half-write", params: { key: `${tag}-1` } },
      { path: "/v1/half-write", params: { key: `${tag}-2`, effect: "fails" } },
    ],
  },
});
const moved = async (fromBlock: bigint, from: string) =>
  transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, from as `0x${string}`);
const channelCharged = async (payload: unknown) => {
  const id = (payload as { payload: { voucher: { channelId: string } } }).payload.voucher.channelId;
  return BigInt((await service.batch!.scheme.getStorage().get(id))?.chargedCumulativeAmount ?? 0);
};
const landed = async (key: string) =>
  (await Promise.all(halves(key).map((k) => service.store.get(k)))).filter((x) => x !== undefined).length;

test("18 decimals: the 402 quotes the batch's $0.05 as 5x10^16 units in every scheme", async () => {
  const res = await service.fetch(`${service.baseUrl}/v1/batch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(probes(["ok"]).args),
  });
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
  assert.deepEqual(
    required.accepts.map((a: { scheme: string; amount: string }) => [a.scheme, a.amount]),
    [
      ["exact", String(50_000n * SCALE)],
      ["batch-settlement", String(50_000n * SCALE)],
      ["upto", String(50_000n * SCALE)],
    ],
  );
});

test("18 decimals: a batch paid by upto settles what it used times 10^12, in one transfer", async () => {
  const who = payer("upto", 0);
  const fromBlock = await blockNow(devnet);
  const answer = await who.pay(service, probes(["ok", "ok", "bad", "ok"]));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.data.succeeded, 3);
  assert.deepEqual(await moved(fromBlock, who.address), { count: 1, value: 3_000n * SCALE });
});

test("18 decimals: a batch paid by voucher charges its channel what it used times 10^12", async () => {
  const who = payer("voucher", 1);
  const answer = await who.pay(service, probes(["ok", "ok", "bad", "ok"]));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(await channelCharged(answer.payload), 3_000n * SCALE);
  const next = await who.pay(service, probes(["ok"]));
  assert.equal(next.status, 200);
  assert.equal(await channelCharged(next.payload), 4_000n * SCALE);
});

for (const way of ["upto", "voucher", "exact"] as const) {
  test(`18 decimals: a batch paid by ${way} whose item's writes fail after payment credits that item's price in USDC units`, async () => {
    const who = payer(way, way === "upto" ? 0 : way === "voucher" ? 1 : 2);
    const answer = await who.pay(service, writes(`credit-${way}`));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const { credit } = answer.body.data;
    assert.equal(credit.amount, "1000");
    assert.equal(await service.credits.balance(credit.code), 1_000n);
    assert.deepEqual([await landed(`credit-${way}-1`), await landed(`credit-${way}-2`)], [2, 0]);
  });
}

for (const way of ["exact", "voucher"] as const) {
  test(`18 decimals: a single call paid by ${way} whose writes fail credits its price in USDC units`, async () => {
    const who = payer(way, way === "voucher" ? 1 : 2);
    const key = `single-${way}`;
    const answer = await who.pay(service, { path: "/v1/half-write", method: "GET", args: { key, effect: "fails" } });
    assert.equal(answer.body.error.code, "effect_failed");
    assert.equal(await service.credits.balance(answer.body.error.details.creditCode), 1_000n);
    assert.equal(await landed(key), 0);
  });
}

test("18 decimals: a settlement whose answer was lost is found on-chain and credited in USDC units", async () => {
  const who = payer("exact", 3);
  const fromBlock = await blockNow(devnet);
  settleTimesOut = true;
  const answer = await who.pay(service, { path: "/v1/probe", method: "GET", args: { echo: "lost" } }).finally(() => {
    settleTimesOut = false;
  });
  assert.equal(answer.status, 402);
  assert.equal(answer.body.reason, "settlement_pending");
  assert.deepEqual(await moved(fromBlock, who.address), { count: 1, value: 1_000n * SCALE });
  const { credited } = await service.reconciler.reconcileOnce();
  assert.equal(credited, 1);
  assert.equal(await service.credits.balance(answer.body.creditCode), 1_000n);
});
