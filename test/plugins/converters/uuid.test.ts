import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import uuidEndpoint from "../../../plugins/converters/uuid.ts";

const service = await startTestService({ plugins: ["converters"] });

const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const cases = [
  { name: "one v4 by default", input: {}, version: "v4", count: 1, shape: v4 },
  { name: "100 v4, the most allowed", input: { count: 100 }, version: "v4", count: 100, shape: v4 },
  { name: "v7 on request", input: { count: 5, version: "v7" }, version: "v7", count: 5, shape: v7 },
];
for (const c of cases) {
  test(`uuid: ${c.name}`, async () => {
    const out = await service.call(uuidEndpoint, c.input as InputOf<typeof uuidEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.version, c.version);
    assert.equal(data.uuids.length, c.count);
    for (const id of data.uuids) assert.match(id, c.shape);
    assert.equal(new Set(data.uuids).size, c.count);
  });
}

test("uuid: v7 carries the current unix milliseconds and comes sorted", async () => {
  const before = Date.now();
  const data = dataOf(await service.call(uuidEndpoint, { count: 50, version: "v7" }));
  const after = Date.now();
  assert.equal(data.uuids.length, 50);
  for (const id of data.uuids) {
    const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    assert.ok(ms >= before && ms <= after, `${id} has ${ms}, outside ${before}..${after}`);
  }
  assert.deepEqual(data.uuids, [...data.uuids].sort());
});

const bad = [
  { name: "count 0", query: "count=0", field: "count" },
  { name: "count over 100", query: "count=101", field: "count" },
  { name: "fractional count", query: "count=1.5", field: "count" },
  { name: "unsupported version", query: "version=v1", field: "version" },
];
for (const c of bad) {
  test(`uuid: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/uuid?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("uuid: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/uuid?count=3");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
