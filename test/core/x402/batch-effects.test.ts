import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { privateKeyToAccount } from "viem/accounts";
import type { Store } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { blockNow, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { payerOf, ways, type Answer, type Request, type Way } from "../../helpers/ways.ts";
import { halves, writesPlugin } from "../../helpers/writes-plugin.ts";

/**
 * Writes that fail once the money moved, for a reason nothing could know before (the store gave out halfway):
 * a batch item's writes are withdrawn alone (nothing of it kept) and only its price credited, or never charged;
 * a single call's are withdrawn whole and its price credited; a bundle's parts stand or fall with it.
 */
type Service = Awaited<ReturnType<typeof startPaidService>>;

let devnet: Devnet;
let redis: RedisServer | undefined;
const stores: RedisStore[] = [];
let solo: Service;
let one: Service;
let two: Service;

before(async () => {
  devnet = await startDevnet();
  solo = await startPaidService(devnet, { plugins: [writesPlugin], upto: true, batch: {} });
  if (redisMissing) return;
  redis = await startRedis();
  const shared = async () => {
    const store = await createRedisStore(redis!.url, pino({ level: "silent" }));
    stores.push(store);
    return startPaidService(devnet, { plugins: [writesPlugin], store, upto: true, batch: { storeUrl: redis!.url } });
  };
  [one, two] = [await shared(), await shared()];
});
after(async () => {
  for (const s of [solo, one, two]) await s?.close();
  for (const store of stores) await store.close();
  await redis?.stop();
  await devnet?.stop();
});

/** Accounts per way and setting: each keeps its own allowance, channel and nonces. */
const accountOf: Record<Way, [number, number]> = {
  exact: [0, 0],
  credit: [0, 0],
  mcp: [1, 1],
  upto: [2, 3],
  voucher: [4, 5],
};
const payers = new Map<string, ReturnType<typeof payerOf>>();
const payer = (way: Way, pair: boolean) => {
  const key = `${way}:${pair}`;
  const index = accountOf[way][pair ? 1 : 0];
  if (!payers.has(key))
    payers.set(key, payerOf(devnet, privateKeyToAccount(devnet.accounts.others[index].privateKey), way));
  return payers.get(key)!;
};

const landed = async (store: Store, key: string) =>
  (await Promise.all(halves(key).map((k) => store.get(k)))).filter((x) => x !== undefined).length;
const batch = (calls: [string, Record<string, unknown>][]): Request => ({
  path: "/v1/batch",
  method: "POST",
  args: { calls: calls.map(([path, params]) => ({ path, params })) },
});

/** What the call took from the payer: on-chain to payTo, onto its voucher channel, or off its credit code. */
async function taken(
  way: Way,
  s: Service,
  from: string,
  fromBlock: bigint,
  answer: Answer,
  before: bigint,
  code?: string,
) {
  if (way === "credit") return before - ((await s.credits.balance(code!)) ?? 0n);
  if (way === "voucher") {
    const id = (answer.payload!.payload as { voucher: { channelId: string } }).voucher.channelId;
    return BigInt((await s.batch!.scheme.getStorage().get(id))?.chargedCumulativeAmount ?? 0) - before;
  }
  return (await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, from as `0x${string}`)).value;
}
const chargedBefore = async (way: Way, s: Service, who: ReturnType<typeof payerOf>) => {
  if (way !== "voucher") return 0n;
  const channels = await s.batch!.scheme.getStorage().list();
  const own = channels.find((c) => c.channelConfig.payer.toLowerCase() === who.address.toLowerCase());
  return BigInt(own?.chargedCumulativeAmount ?? 0);
};

const settings = [
  ["one instance", () => [solo, solo]],
  ["two instances sharing Redis", () => [one, two]],
] as const;

for (const way of ways) {
  for (const [where, services] of settings) {
    test(`batch by ${way}: an item whose writes fail after payment is withdrawn alone and only its price is credited (${where})`, {
      skip: where !== "one instance" && redisMissing,
    }, async () => {
      const [paidOn, readOn] = services();
      const who = payer(way, paidOn !== solo);
      const tag = `${way}-${paidOn === solo ? "solo" : "pair"}`;
      const code = way === "credit" ? await paidOn.credits.issue(50_000n, "test") : undefined;
      const before = way === "credit" ? 50_000n : await chargedBefore(way, paidOn, who);
      const fromBlock = await blockNow(devnet);
      const answer = await who.pay(
        paidOn,
        batch([
          ["/v1/half-write", { key: `${tag}-1` }],
          ["/v1/half-write", { key: `${tag}-2`, effect: "fails" }],
          ["/v1/half-write", { key: `${tag}-3`, effect: "refused" }],
          ["/v1/pair-write", { key: `${tag}-4`, second: "fails" }],
          ["/v1/pair-write", { key: `${tag}-5`, second: "ok" }],
        ]),
        code,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const data = answer.body.data;
      assert.deepEqual(
        data.results.map((r: { status: number; body: any }) => r.body.error?.code ?? r.status),
        [200, "effect_failed", "invalid_input", "effect_failed", 200],
      );
      assert.deepEqual([data.succeeded, data.failed], [2, 3]);
      const kept = [
        await landed(readOn.store, `${tag}-1`),
        await landed(readOn.store, `${tag}-2`),
        await landed(readOn.store, `${tag}-3`),
        (await landed(readOn.store, `${tag}-4-a`)) + (await landed(readOn.store, `${tag}-4-b`)),
        (await landed(readOn.store, `${tag}-5-a`)) + (await landed(readOn.store, `${tag}-5-b`)),
      ];
      assert.deepEqual(kept, [2, 0, 0, 0, 4], "writes kept per item: nothing of a withdrawn item");

      // Prices: half-write 1,000, pair-write 2,000; the batch costs its $0.05 minimum.
      const moved = await taken(way, paidOn, who.address, fromBlock, answer, before, code);
      const credit = data.credit && {
        amount: BigInt(data.credit.amount),
        held: await readOn.credits.balance(data.credit.code),
      };
      if (way === "upto" || way === "voucher") {
        assert.equal(moved, 1_000n + 1_000n + 2_000n + 2_000n, "charged what ran, the refused item not");
        assert.deepEqual(credit, { amount: 3_000n, held: 3_000n }, "credited after: the withdrawn items");
      } else {
        assert.equal(moved, 50_000n);
        assert.deepEqual(credit, { amount: 4_000n, held: 4_000n }, "credited: the three failed items");
      }
    });
  }

  test(`a single call by ${way} whose writes fail after payment keeps nothing and credits exactly its price`, {
    skip: way === "upto",
  }, async () => {
    const who = payer(way, false);
    const key = `single-${way}`;
    const code = way === "credit" ? await solo.credits.issue(1_000n, "test") : undefined;
    const before = way === "credit" ? 1_000n : await chargedBefore(way, solo, who);
    const fromBlock = await blockNow(devnet);
    const answer = await who.pay(solo, { path: "/v1/half-write", method: "GET", args: { key, effect: "fails" } }, code);
    assert.equal(answer.body.error.code, "effect_failed");
    assert.equal(await landed(solo.store, key), 0, "nothing kept");
    const moved = await taken(way, solo, who.address, fromBlock, answer, before, code);
    const creditCode = answer.body.error.details.creditCode;
    if (way === "credit") {
      assert.equal(moved, 0n, "the code got its price back");
      assert.equal(creditCode, code);
    } else {
      assert.equal(moved, 1_000n);
      assert.equal(await solo.credits.balance(creditCode), 1_000n);
    }
  });
}

test("a bundle whose part's writes fail after payment keeps none of its parts' writes and credits its price", async () => {
  const who = payer("exact", false);
  const fromBlock = await blockNow(devnet);
  const answer = await who.pay(solo, {
    path: "/v1/pair-write",
    method: "GET",
    args: { key: "bundle", second: "fails" },
  });
  assert.equal(answer.status, 503);
  assert.equal(answer.body.error.code, "effect_failed");
  assert.equal((await landed(solo.store, "bundle-a")) + (await landed(solo.store, "bundle-b")), 0, "nothing kept");
  assert.equal(await taken("exact", solo, who.address, fromBlock, answer, 0n), 2_000n);
  assert.equal(await solo.credits.balance(answer.body.error.details.creditCode), 2_000n);
});
