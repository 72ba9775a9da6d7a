import { after, test } from "node:test";
import assert from "node:assert/strict";
import { keccak256, toHex } from "viem";
import { startTestService } from "../../helpers/service.ts";
import { errorOf, expectFree400 } from "../../helpers/expect.ts";

const unconfigured = await startTestService({ plugins: ["duel"] });
// Nothing listens on port 9 of the loopback: the configured chain node is down.
const service = await startTestService({
  plugins: ["duel"],
  env: {
    UPSTREAM_DUEL_RPC_URL: "http://127.0.0.1:9",
    DUEL_ESCROW_ADDRESS: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
  },
});
after(() => Promise.all([unconfigured.close(), service.close()]));
const seed = keccak256(toHex("helpers"));

test("duel: without the duel node (UPSTREAM_DUEL_RPC_URL) and DUEL_ESCROW_ADDRESS only the shoe is served; the rest is listed as disabled", async () => {
  assert.deepEqual(
    unconfigured.runtime.endpoints.filter((e) => e.family === "duel").map((e) => e.name),
    ["duel/shoe"],
  );
  const disabled = unconfigured.runtime.disabled.map((d) => d.name).sort();
  assert.deepEqual(disabled, [
    "duel/create",
    "duel/feed",
    "duel/join",
    "duel/quote",
    "duel/seed",
    "duel/state",
    "duel/tx",
  ]);
  assert.match(unconfigured.runtime.disabled[0].reason, /duel-rpc/);
  assert.equal((await unconfigured.request("/duel/quote")).status, 404);
  assert.equal((await unconfigured.request(`/duel/shoe?seed=${seed}&sideA=true`)).status, 200);
});

test("duel/shoe: one side's 52 cards in draw order, with every hand they allow", async () => {
  const res = await service.request(`/duel/shoe?seed=${seed}&sideA=false`);
  assert.equal(res.status, 200);
  const { data } = await res.json();
  assert.equal(data.sideA, false);
  assert.deepEqual(
    data.cards.map((c: any) => c.card).sort((x: number, y: number) => x - y),
    Array.from({ length: 52 }, (_, i) => i),
  );
  assert.deepEqual(
    data.cards.map((c: any) => c.position),
    Array.from({ length: 52 }, (_, i) => i),
  );
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  for (const c of data.cards) assert.equal(c.rank, ranks[c.card % 13]);
  assert.equal(data.hands.length, 10);
  const firstBust = data.hands.findIndex((h: any) => h.bust);
  assert.ok(
    data.hands.slice(firstBust).every((h: any) => h.bust && h.score === 0),
    "once bust, more cards stay bust",
  );
  const other = await (await service.request(`/duel/shoe?seed=${seed}&sideA=true`)).json();
  assert.notDeepEqual(other.data.cards, data.cards);
});

test("duel/tx: no secret is taken in a URL: reveal answers a template without a chain read, and each action names the fields it lacks", async () => {
  const secret = keccak256(toHex("s"));
  const res = await service.request("/duel/tx?action=reveal&duelId=3");
  assert.equal(res.status, 200);
  const template = await res.json();
  assert.deepEqual(Object.keys(template).sort(), ["append", "dataPrefix", "to", "value"], "a template, no envelope");
  assert.equal(template.value, "0x0");
  assert.match(template.dataPrefix, /^0x[0-9a-f]{8}0{63}3$/);
  for (const query of [
    `action=reveal&duelId=3&secret=${secret}`,
    `action=sha&secret=${secret}`,
    `action=reveal-moves&duelId=1&hits=1&salt=${secret}`,
  ]) {
    const refused = await service.request(`/duel/tx?${query}`);
    assert.equal(refused.status, 400, query);
  }
  for (const [query, field] of [
    ["action=settle", "duelId"],
    ["action=cancel", "duelId"],
    ["action=commit&duelId=1", "commitment"],
    [`action=create&commitment=${secret}`, "stake"],
  ]) {
    const bad = await service.request(`/duel/tx?${query}`);
    assert.equal(bad.status, 400, query);
    assert.equal((await bad.json()).error.details.issues[0].field, field, query);
  }
});

const badInputs = [
  { path: "/duel/shoe?seed=0x12&sideA=true", field: "seed" },
  { path: `/duel/shoe?seed=${seed}`, field: "sideA" },
  { path: "/duel/tx?action=deal", field: "action" },
  { path: "/duel/tx?action=create&maxRakeBps=1001", field: "maxRakeBps" },
  { path: "/duel/seed?duelId=0", field: "duelId" },
  { path: "/v1/duel/state?duelId=1.5", field: "duelId" },
];
for (const c of badInputs) {
  test(`duel: ${c.path} is a free 400 naming ${c.field}`, async () => {
    const res = await service.request(c.path);
    await expectFree400(res, c.field);
  });
}

test("duel/create: bad JSON fields are a 400 before payment", async () => {
  const res = await service.request("/v1/duel/create", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ commitmentA: "0xabc", stake: -1 }),
  });
  assert.equal(res.status, 400);
  const fields = (await res.json()).error.details.issues.map((i: any) => i.field).sort();
  assert.deepEqual(fields, ["commitmentA", "stake"]);
});

test("duel: a chain node that does not answer is a 502, never charged", async () => {
  for (const [name, input] of [
    ["duel/state", { duelId: 1 }],
    ["duel/create", { commitmentA: seed, stake: 0.01 }],
  ] as const) {
    const out = await service.call(name, input);
    assert.equal(out.status, 502, JSON.stringify(out.body));
    assert.equal(errorOf(out).code, "upstream_error");
  }
  assert.equal((await service.request("/duel/quote")).status, 502);
});
