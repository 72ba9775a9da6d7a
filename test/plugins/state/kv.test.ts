import { test } from "node:test";
import assert from "node:assert/strict";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, query } from "../web/_web-expect.ts";
import { errorOf } from "../../helpers/expect.ts";
import retrieveEndpoint from "../../../plugins/state/retrieve.ts";
import storeEndpoint from "../../../plugins/state/store.ts";

let clock = new Date("2026-11-23T10:00:00Z");
const store = createMemoryStore(() => clock.getTime());
const service = await startTestService({ plugins: ["state"], store, now: () => clock });
const alice = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const bob = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

test("store then retrieve: the value, its version, bytes and expiry", async () => {
  const stored = dataOf(await service.callAs(alice, storeEndpoint, { key: "notes/today", value: "héllo", ttl: 600 }));
  assert.deepEqual(stored, {
    key: "notes/today",
    bytes: 6,
    version: 1,
    createdAt: "2026-11-23T10:00:00.000Z",
    updatedAt: "2026-11-23T10:00:00.000Z",
    expiresAt: "2026-11-23T10:10:00.000Z",
    ttl: 600,
    overwritten: false,
  });
  clock = new Date("2026-11-23T10:01:00Z");
  const read = dataOf(await service.callAs(alice, retrieveEndpoint, { key: "notes/today" }));
  assert.equal(read.value, "héllo");
  assert.equal(read.ttlRemaining, 540);
  assert.equal(read.version, 1);
});

test("overwriting a live key raises its version, keeps createdAt and replaces the expiry", async () => {
  clock = new Date("2026-11-23T11:00:00Z");
  dataOf(await service.callAs(alice, storeEndpoint, { key: "counter", value: "1" }));
  clock = new Date("2026-11-23T11:05:00Z");
  const second = dataOf(await service.callAs(alice, storeEndpoint, { key: "counter", value: "2", ttl: 60 }));
  assert.equal(second.version, 2);
  assert.equal(second.overwritten, true);
  assert.equal(second.createdAt, "2026-11-23T11:00:00.000Z");
  assert.equal(second.expiresAt, "2026-11-23T11:06:00.000Z");
  assert.equal(dataOf(await service.callAs(alice, retrieveEndpoint, { key: "counter" })).value, "2");
});

test("namespacing: two wallets with the same key never see or overwrite each other's value", async () => {
  dataOf(await service.callAs(alice, storeEndpoint, { key: "shared-name", value: "alice's" }));
  const bobs = dataOf(await service.callAs(bob, storeEndpoint, { key: "shared-name", value: "bob's" }));
  assert.equal(bobs.version, 1);
  assert.equal(bobs.overwritten, false);
  assert.equal(dataOf(await service.callAs(alice, retrieveEndpoint, { key: "shared-name" })).value, "alice's");
  assert.equal(dataOf(await service.callAs(bob, retrieveEndpoint, { key: "shared-name" })).value, "bob's");
  dataOf(await service.callAs(alice, storeEndpoint, { key: "alice-only", value: "x" }));
  assert.equal((await service.callAs(bob, retrieveEndpoint, { key: "alice-only" })).status, 404);
});

test("the wallet is compared without regard to address case", async () => {
  dataOf(await service.callAs(alice, storeEndpoint, { key: "cased", value: "v" }));
  assert.equal(
    dataOf(await service.callAs(alice.toLowerCase() as `0x${string}`, "retrieve", { key: "cased" })).value,
    "v",
  );
});

test("TTL expiry: the value is there one second before its expiry and gone at it", async () => {
  clock = new Date("2026-11-23T12:00:00Z");
  dataOf(await service.callAs(alice, storeEndpoint, { key: "short", value: "soon gone", ttl: 30 }));
  clock = new Date("2026-11-23T12:00:29Z");
  assert.equal(dataOf(await service.callAs(alice, retrieveEndpoint, { key: "short" })).ttlRemaining, 1);
  clock = new Date("2026-11-23T12:00:30Z");
  const gone = await service.callAs(alice, retrieveEndpoint, { key: "short" });
  assert.equal(gone.status, 404);
  assert.equal(errorOf(gone).code, "not_found");
  assert.ok(!(await store.keys("state:kv:")).some((k) => k.endsWith(":short")), "the store dropped it too");
  const again = dataOf(await service.callAs(alice, storeEndpoint, { key: "short", value: "new" }));
  assert.equal(again.version, 1, "an expired key starts over");
});

test("a call without a wallet (credit code, prepaid part) is refused 403 and nothing is stored", async () => {
  const before = (await store.keys("state:")).length;
  for (const [name, input] of [
    ["store", { key: "k", value: "v" }],
    ["retrieve", { key: "k" }],
  ] as const) {
    const out = await service.call(name, input);
    assert.equal(out.status, 403, name);
    assert.equal(errorOf(out).code, "wallet_required");
  }
  assert.equal((await store.keys("state:")).length, before);
});

const bad: { name: string; path: string; params: Record<string, string | number>; field: string }[] = [
  { name: "missing key", path: "/v1/store", params: { value: "v" }, field: "key" },
  { name: "key with a space", path: "/v1/store", params: { key: "a b", value: "v" }, field: "key" },
  { name: "key over 128 characters", path: "/v1/retrieve", params: { key: "k".repeat(129) }, field: "key" },
  {
    name: "value over 32768 characters",
    path: "/v1/store",
    params: { key: "k", value: "v".repeat(32_769) },
    field: "value",
  },
  { name: "ttl over 30 days", path: "/v1/store", params: { key: "k", value: "v", ttl: 2_592_001 }, field: "ttl" },
  { name: "ttl of zero", path: "/v1/store", params: { key: "k", value: "v", ttl: 0 }, field: "ttl" },
];
for (const c of bad) {
  test(`${c.path}: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`${c.path}?${query(c.params)}`), c.field);
  });
}

test("valid input without payment is a 402 at the catalog price; store also takes a JSON body", async () => {
  const get = await service.request(`/v1/store?${query({ key: "k", value: "v" })}`);
  assert.equal(get.status, 402);
  assert.equal((await get.json()).accepts[0].maxAmountRequired, "10000");
  const post = await service.request("/v1/store", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: "k", value: "v" }),
  });
  assert.equal(post.status, 402);
  const read = await service.request(`/v1/retrieve?key=k`);
  assert.equal((await read.json()).accepts[0].maxAmountRequired, "5000");
});
