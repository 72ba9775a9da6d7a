import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { privateKeyToAccount } from "viem/accounts";
import { definePlugin } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin, handlerRuns } from "../../helpers/probe-plugin.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { startTestService } from "../../helpers/service.ts";
import { challengeOf, newPaymentId, v2Header } from "../../helpers/sign.ts";
import { dataOf } from "../../helpers/expect.ts";

const skip = redisMissing;
const log = pino({ level: "silent" });
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const alice = "0x00000000000000000000000000000000000a11ce" as const;

let redis: RedisServer;
let devnet: Devnet;
const stores: RedisStore[] = [];
const openStore = async () => {
  const store = await createRedisStore(redis.url, log);
  stores.push(store);
  return store;
};
type Paid = Awaited<ReturnType<typeof startPaidService>>;
let a: Paid;
let b: Paid;

before(async () => {
  if (skip) return;
  [redis, devnet] = await Promise.all([startRedis({ appendonly: true }), startDevnet()]);
  a = await startPaidService(devnet, { plugins: [probePlugin], store: await openStore() });
  b = await startPaidService(devnet, { plugins: [probePlugin], store: await openStore() });
});

after(async () => {
  if (skip) return;
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all(stores.map((s) => s.close()));
  await Promise.all([redis?.stop(), devnet?.stop()]);
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
let replayedHeader = "";

test("a payment replayed against two instances at once is granted once and moves the price once", {
  skip,
}, async () => {
  const required = await challengeOf(a.fetch, url("/v1/probe?echo=twice"));
  const { header } = await v2Header(payer(), required, {}, undefined, newPaymentId());
  replayedHeader = header;
  const chain = chainReader(devnet);
  const before = await chain.balance(devnet.accounts.payTo.address);
  const runs = handlerRuns.count;
  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? b : a).fetch(url("/v1/probe?echo=twice"), { headers: { "payment-signature": header } }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(statuses.filter((s) => s === 409).length, 11, String(statuses));
  assert.equal(handlerRuns.count - runs, 1);
  assert.equal((await chain.balance(devnet.accounts.payTo.address)) - before, 1000n);
  const retry = await b.fetch(url("/v1/probe?echo=twice"), { headers: { "payment-signature": header } });
  assert.equal(retry.status, 200, "the settled answer is replayed to its payer's identifier by the other instance");
  assert.equal(handlerRuns.count - runs, 1);
});

test("a credit spent on both instances at once never goes below zero", { skip }, async () => {
  const code = await a.credits.issue(3000n, "test");
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? b : a).fetch(url(`/v1/probe?echo=c${i}`), { headers: { "x-credit-code": code } }),
    ),
  );
  assert.equal(responses.filter((r) => r.status === 200).length, 3, String(responses.map((r) => r.status)));
  assert.equal(await b.credits.balance(code), 0n);
});

test("the per-IP rate limit (client IP from X-Forwarded-For behind the balancer) is one budget across instances", {
  skip,
}, async () => {
  const env = { RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "on" };
  const store = await openStore();
  const [x, y] = await Promise.all([
    startTestService({ given: [probePlugin], store, env }),
    startTestService({ given: [probePlugin], store: await openStore(), env }),
  ]);
  // A minute's window is shared: the one that would straddle its end could start a fresh budget.
  if (60 - new Date().getSeconds() < 3) await new Promise((r) => setTimeout(r, 3000));
  const statuses = [];
  const from = (ip: string) => ({ headers: { "x-forwarded-for": `${ip}, 10.0.0.2` } });
  for (const service of [x, y, x, y]) statuses.push((await service.request("/v1/probe", from("203.0.113.9"))).status);
  assert.deepEqual(statuses, [402, 402, 402, 429]);
  assert.equal((await y.request("/v1/probe", from("203.0.113.10"))).status, 402, "another client has its own budget");
  await Promise.all([x.close(), y.close()]);
});

test("a background job's tick runs on one of two instances", { skip }, async () => {
  const ticks: string[] = [];
  const plugin = definePlugin({
    family: "ticker",
    endpoints: [],
    jobs: [{ name: "tick-once", everyMs: 60_000, run: async (ctx) => void ticks.push(ctx.now().toISOString()) }],
  });
  const now = () => new Date("2026-11-23T00:00:10Z");
  const [x, y] = await Promise.all([
    startTestService({ given: [plugin], store: await openStore(), now }),
    startTestService({ given: [plugin], store: await openStore(), now }),
  ]);
  const ran = await Promise.all([
    x.jobs.run("tick-once"),
    y.jobs.run("tick-once"),
    x.jobs.run("tick-once"),
    y.jobs.run("tick-once"),
  ]);
  assert.deepEqual(ran.filter(Boolean).length, 1);
  assert.deepEqual(ticks, ["2026-11-23T00:00:10.000Z"]);
  await Promise.all([x.close(), y.close()]);
});

test("increments and sorted-set scores through two instances at once add up", { skip }, async () => {
  const [one, two] = [await openStore(), await openStore()];
  await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      Promise.all([
        (i % 2 ? two : one).increment("shared:count", 10),
        (i % 2 ? one : two).rank("shared:board", "ada", 10),
      ]),
    ),
  );
  assert.equal(await one.get("shared:count"), 100);
  assert.deepEqual(await two.top("shared:board", 1), [{ member: "ada", score: 100 }]);
});

test("a key stored through one instance is read through the other", { skip }, async () => {
  const [x, y] = await Promise.all([
    startTestService({ plugins: ["state"], store: await openStore() }),
    startTestService({ plugins: ["state"], store: await openStore() }),
  ]);
  assert.equal((await x.callAs(alice, "store", { key: "notes/shared", value: "from x", ttl: 3600 })).status, 200);
  const read = await y.callAs(alice, "retrieve", { key: "notes/shared" });
  assert.equal(dataOf(read).value, "from x");
  await Promise.all([x.close(), y.close()]);
});

test("after Redis (appendonly) and an instance restart: the settled payment, counters, credits and keys are all there", {
  skip,
}, async () => {
  const codeBefore = await a.credits.issue(5000n, "kept");
  await a.close();
  await redis.restart(async () => {
    await new Promise((r) => setTimeout(r, 1600)); // past the cached readiness report
    const down = await b.fetch(url("/ready"));
    assert.equal(down.status, 503);
    const report = await down.json();
    assert.equal(report.status, "unready");
    assert.notEqual(report.checks.store, "ok");
    const failed = await b.fetch(url("/v1/probe?echo=down"), { headers: { "x-credit-code": codeBefore } });
    assert.equal(failed.status, 503, "a call fails while the store is down, as the service's failure");
    assert.ok(Number(failed.headers.get("retry-after")) > 0);
  });
  // b's client reconnects by itself; /ready turns 200 once its store answers again.
  const deadline = Date.now() + 10_000;
  let ready = await b.fetch(url("/ready"));
  while (ready.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    ready = await b.fetch(url("/ready"));
  }
  assert.equal(ready.status, 200, JSON.stringify(await ready.json()));
  a = await startPaidService(devnet, { plugins: [probePlugin], store: await openStore() });

  const runs = handlerRuns.count;
  const replay = await a.fetch(url("/v1/probe?echo=twice"), { headers: { "payment-signature": replayedHeader } });
  assert.equal(replay.status, 200, "the settled record survived: the answer is replayed, not run or charged again");
  assert.equal(handlerRuns.count, runs);
  assert.equal(await a.credits.balance(codeBefore), 5000n);
  assert.equal(await a.store.get("shared:count"), 100);
  assert.deepEqual(await a.store.top("shared:board", 1), [{ member: "ada", score: 100 }]);
  const state = await startTestService({ plugins: ["state"], store: a.store });
  assert.equal(dataOf(await state.callAs(alice, "retrieve", { key: "notes/shared" })).value, "from x");
  await state.close();
});
