import { after, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { Plugin } from "../../../core/endpoint.ts";
import type { X402Gate } from "../../../core/x402/offers.ts";
import { importFamily } from "../../../core/runtime/load.ts";
import { settlingGate, startTestService, testPayer } from "../../helpers/service.ts";
import { effectsTwice, fundedFor, paying, settlingTogether, withEffects } from "../_effects.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, query } from "../web/_web-expect.ts";
import { page, world } from "./_watch-harness.ts";

const state = await importFamily("state");

const target = await startTarget({ "/page": { body: page("One") }, "/hook": { body: "ok" } });
after(() => target.close());
const wallet = testPayer.toLowerCase();

async function service(_t: TestContext, payments: X402Gate, plugin?: Plugin, env: Record<string, string> = {}) {
  const w = world();
  const s = await startTestService({
    plugins: ["state"],
    payments,
    store: w.store,
    now: w.clock,
    egressLoopbackPort: target.port,
    given: plugin && [plugin],
    env,
  });
  return { ...s, keys: (prefix: string) => w.store.keys(prefix) };
}
type Service = Awaited<ReturnType<typeof service>>;

const store = (s: Service, key: string, value = "v") =>
  s.request(`/v1/store?${query({ key, value })}`, { headers: paying });
const watch = (s: Service) =>
  s.request(`/v1/watch?${query({ url: target.url("/page"), webhook: target.url("/hook"), interval: 300 })}`, {
    headers: paying,
  });
const read = async (s: Service, key: string) => dataOf(await s.callAs(testPayer, "retrieve", { key }));

test("store: a call whose settlement fails answers 402 and writes no key", async (t) => {
  const s = await service(t, settlingGate({ settles: false }));
  assert.equal((await store(s, "unpaid")).status, 402);
  assert.deepEqual(await s.keys("state:"), []);
});

test("store: a settled call writes exactly one key, holding what its answer described", async (t) => {
  const s = await service(t, settlingGate());
  const res = await store(s, "paid", "hello");
  assert.equal(res.status, 200);
  const answer = (await res.json()).data;
  assert.deepEqual(await s.keys("state:"), [`state:kv:${wallet}:paid`]);
  const stored = await read(s, "paid");
  assert.deepEqual(
    [stored.value, stored.version, stored.expiresAt, stored.bytes],
    ["hello", answer.version, answer.expiresAt, answer.bytes],
  );
});

test("store: 8 concurrent settled calls write exactly 8 keys", async (t) => {
  const s = await service(t, settlingGate());
  const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await store(s, `k${i}`)).status));
  assert.deepEqual(statuses, Array(8).fill(200));
  assert.equal((await s.keys(`state:kv:${wallet}:`)).length, 8);
});

test("store: 8 concurrent calls from a wallet funded for one write only the one key that was paid", async (t) => {
  const s = await service(t, fundedFor(1));
  const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await store(s, `k${i}`)).status));
  assert.deepEqual([...statuses].sort(), [200, ...Array(7).fill(402)]);
  assert.deepEqual(await s.keys("state:"), [`state:kv:${wallet}:k${statuses.indexOf(200)}`]);
});

test("store: an effect run a second time (a retry) leaves the same record, version 1 then 2", async (t) => {
  const twice = effectsTwice(state);
  const s = await service(t, settlingGate(), twice);
  assert.equal((await store(s, "twice", "one")).status, 200);
  assert.equal((await read(s, "twice")).version, 1);
  assert.equal((await store(s, "twice", "two")).status, 200);
  const stored = await read(s, "twice");
  assert.deepEqual([stored.value, stored.version], ["two", 2]);
  assert.equal((await s.keys("state:")).length, 1);
  assert.deepEqual(twice.failed, []);
});

test("watch: a creation whose settlement fails leaves no watch and takes no slot", async (t) => {
  const s = await service(t, settlingGate({ settles: false }));
  const reads = target.hits.filter((h) => h.path === "/page").length;
  assert.equal((await watch(s)).status, 402);
  assert.equal(
    target.hits.filter((h) => h.path === "/page").length,
    reads + 1,
    "the handler ran: it read the baseline",
  );
  assert.deepEqual(await s.keys("state:"), []);
});

test("watch: a settled creation stores one watch and takes one slot", async (t) => {
  const s = await service(t, settlingGate());
  const res = await watch(s);
  assert.equal(res.status, 200);
  const { id } = (await res.json()).data;
  assert.deepEqual(await s.keys("state:watch:"), [`state:watch:${id}`]);
  assert.deepEqual(await s.keys("state:slot:"), [`state:slot:${wallet}:0`]);
  assert.equal(dataOf(await s.callAs(testPayer, "watch-status", { id })).status, "active");
});

test("watch: 8 concurrent settled creations under the cap store exactly 8 watches in 8 slots", async (t) => {
  const s = await service(t, settlingGate());
  const statuses = await Promise.all(Array.from({ length: 8 }, async () => (await watch(s)).status));
  assert.deepEqual(statuses, Array(8).fill(200));
  assert.equal((await s.keys("state:watch:")).length, 8);
  assert.equal((await s.keys("state:slot:")).length, 8);
});

test("watch: 8 paid creations racing for 3 slots store exactly 3 watches; the other 5 are refused before payment", async (t) => {
  const counted = withEffects(state, (effect) => effect());
  const s = await service(t, settlingTogether(8), counted, { WATCH_MAX_PER_WALLET: "3" });
  const answers = await Promise.all(Array.from({ length: 8 }, () => watch(s)));
  const statuses = answers.map((res) => res.status).sort();
  assert.deepEqual(
    statuses,
    [200, 200, 200, 409, 409, 409, 409, 409],
    "the slots are reserved in the handler: the calls beyond the cap fail there, before any settlement",
  );
  assert.deepEqual(counted.failed, [], "no write failed after payment");
  const watches = await s.keys("state:watch:");
  assert.equal(watches.length, 3);
  const slots = await s.keys("state:slot:");
  assert.equal(slots.length, 3);
  const holders = await Promise.all(slots.map((slot) => s.runtime.store.get<string>(slot)));
  assert.deepEqual(
    holders.map((id) => `state:watch:${id}`).sort(),
    [...watches].sort(),
    "each slot holds a stored watch",
  );

  const next = await watch(s);
  assert.equal(next.status, 409);
  assert.equal((await next.json()).error.code, "watch_limit_reached");
  assert.equal((await s.keys("state:watch:")).length, 3);
});

test("watch: an effect run a second time (a retry) takes one slot for one watch", async (t) => {
  const twice = effectsTwice(state);
  const s = await service(t, settlingGate(), twice);
  assert.equal((await watch(s)).status, 200);
  assert.deepEqual(twice.failed, [], "the second run finds the slot it took");
  assert.equal((await s.keys("state:watch:")).length, 1);
  assert.equal((await s.keys("state:slot:")).length, 1);
});
