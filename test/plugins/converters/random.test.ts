import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { shuffled, uniformInt, uniformUnit } from "../../../plugins/converters/_random.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import randomEndpoint from "../../../plugins/converters/random.ts";

const service = await startTestService({ plugins: ["converters"] });

async function values(input: object) {
  const out = await service.call(randomEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}

const cases: { name: string; input: object; check: (v: any[]) => boolean; count: number }[] = [
  {
    name: "one int in 1..100 by default",
    input: {},
    count: 1,
    check: (v) => Number.isInteger(v[0]) && v[0] >= 1 && v[0] <= 100,
  },
  {
    name: "ints within min and max",
    input: { count: 50, min: -3, max: 3 },
    count: 50,
    check: (v) => v.every((x) => Number.isInteger(x) && x >= -3 && x <= 3),
  },
  {
    name: "a single-value range",
    input: { count: 5, min: 7, max: 7 },
    count: 5,
    check: (v) => v.every((x) => x === 7),
  },
  {
    name: "unique ints use the whole range",
    input: { type: "int", count: 10, min: 1, max: 10, unique: true },
    count: 10,
    check: (v) => [...v].sort((a, b) => a - b).join() === "1,2,3,4,5,6,7,8,9,10",
  },
  {
    name: "ints over a range wider than 2^48",
    input: { count: 20, min: -9e15, max: 9e15 },
    count: 20,
    check: (v) => v.every((x) => Number.isSafeInteger(x) && x >= -9e15 && x <= 9e15),
  },
  {
    name: "floats in [0, 1) by default",
    input: { type: "float", count: 20 },
    count: 20,
    check: (v) => v.every((x) => x >= 0 && x < 1),
  },
  {
    name: "floats in [min, max)",
    input: { type: "float", count: 20, min: 5, max: 6 },
    count: 20,
    check: (v) => v.every((x) => x >= 5 && x < 6),
  },
  {
    name: "hex strings of the given length",
    input: { type: "string", count: 3, length: 40, charset: "hex" },
    count: 3,
    check: (v) => v.every((x) => /^[0-9a-f]{40}$/.test(x)),
  },
  {
    name: "alphanumeric strings by default",
    input: { type: "string", count: 2 },
    count: 2,
    check: (v) => v.every((x) => /^[A-Za-z0-9]{16}$/.test(x)),
  },
  {
    name: "picks from the items",
    input: { type: "pick", count: 30, items: ["a", "b"] },
    count: 30,
    check: (v) => v.every((x) => x === "a" || x === "b"),
  },
  {
    name: "unique picks",
    input: { type: "pick", count: 3, items: ["a", "b", "c"], unique: true },
    count: 3,
    check: (v) => [...v].sort().join() === "a,b,c",
  },
  {
    name: "a shuffle is a permutation of all items",
    input: { type: "shuffle", items: ["1", "2", "3", "4", "5"] },
    count: 5,
    check: (v) => [...v].sort().join() === "1,2,3,4,5",
  },
  {
    name: "dice with the given sides",
    input: { type: "dice", count: 50, sides: 20 },
    count: 50,
    check: (v) => v.every((x) => Number.isInteger(x) && x >= 1 && x <= 20),
  },
  {
    name: "coins are heads or tails",
    input: { type: "coin", count: 50 },
    count: 50,
    check: (v) => v.every((x) => x === "heads" || x === "tails"),
  },
];
for (const c of cases) {
  test(`random: ${c.name}`, async () => {
    const data = await values(c.input);
    assert.equal(data.values.length, c.count);
    assert.ok(c.check(data.values), JSON.stringify(data.values));
  });
}

test("random: dice report their total", async () => {
  const data = await values({ type: "dice", count: 10 });
  assert.equal(
    data.total,
    data.values.reduce((a: number, b) => a + Number(b), 0),
  );
  assert.equal((await values({ type: "coin" })).total, undefined);
});

test("random: every face of a die comes up about equally often (no modulo bias)", () => {
  const counts = new Array(6).fill(0);
  for (let i = 0; i < 60_000; i++) counts[uniformInt(1, 6) - 1]++;
  // Each count is about 10,000 with a standard deviation near 91; 500 is more than 5 of them.
  for (const n of counts) assert.ok(Math.abs(n - 10_000) < 500, JSON.stringify(counts));
});

test("random: the wide-range sampler splits its range evenly", () => {
  let low = 0;
  for (let i = 0; i < 20_000; i++) if (uniformInt(0, 2 ** 52) < 2 ** 51) low++;
  assert.ok(Math.abs(low - 10_000) < 400, String(low));
  const unit = Array.from({ length: 20_000 }, uniformUnit);
  assert.ok(Math.abs(unit.filter((x) => x < 0.5).length - 10_000) < 400);
  assert.deepEqual(shuffled(["x"]), ["x"]);
});

const refused = [
  { name: "more unique ints than the range holds", input: { count: 5, min: 1, max: 3, unique: true }, field: "count" },
  { name: "min above max", input: { min: 5, max: 1 }, field: "max" },
  { name: "fractional bounds for ints", input: { min: 0.5, max: 2 }, field: "min" },
  { name: "an empty float range", input: { type: "float", min: 1, max: 1 }, field: "max" },
  { name: "pick without items", input: { type: "pick" }, field: "items" },
  { name: "shuffle without items", input: { type: "shuffle" }, field: "items" },
  {
    name: "more unique picks than items",
    input: { type: "pick", items: ["a"], count: 2, unique: true },
    field: "count",
  },
];
for (const c of refused) {
  test(`random: ${c.name} is a 400 on ${c.field}`, async () => {
    const out = await service.call("random", c.input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === c.field),
      JSON.stringify(out.body),
    );
  });
}

const bad = [
  { name: "count over 50", query: "count=51", field: "count" },
  { name: "unknown type", query: "type=uuid", field: "type" },
  { name: "unknown charset", query: "type=string&charset=emoji", field: "charset" },
  { name: "a one-sided die", query: "type=dice&sides=1", field: "sides" },
  { name: "string length over 1024", query: "type=string&length=1025", field: "length" },
  { name: "a bound beyond safe integers", query: `max=${2 ** 60}`, field: "max" },
];
for (const c of bad) {
  test(`random: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/random?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("random: valid input without payment is a 402 (items comma-separated)", async () => {
  const res = await service.request("/v1/random?type=pick&items=a,b,c&count=2");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
