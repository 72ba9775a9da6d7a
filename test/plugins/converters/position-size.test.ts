import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import positionSize from "../../../plugins/converters/position-size.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import positionSizeEndpoint from "../../../plugins/converters/position-size.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: InputOf<typeof positionSizeEndpoint>) => {
  const out = await service.call(positionSizeEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

const cases = [
  {
    name: "a long: 1% of 10,000 with a 2,000 stop is 0.05 BTC",
    input: { accountSize: 10_000, riskPercent: 1, entry: 50_000, stop: 48_000 },
    expected: {
      side: "long",
      units: 0.05,
      notional: 2500,
      margin: 2500,
      riskBudget: 100,
      riskAmount: 100,
      stopDistance: 2000,
      stopDistancePercent: 4,
      leverage: 1,
      exceedsAccount: false,
    },
  },
  {
    name: "a short, whole shares rounded down so the risk stays within budget",
    // 2% of 2,500 = 50; 50 / 0.75 = 66.67 -> 66 shares, losing 49.50 at the stop.
    input: { accountSize: 2500, riskPercent: 2, entry: 10.5, stop: 11.25, unitDecimals: 0 },
    expected: {
      side: "short",
      units: 66,
      notional: 693,
      margin: 693,
      riskBudget: 50,
      riskAmount: 49.5,
      stopDistance: 0.75,
      stopDistancePercent: 7.1429,
      leverage: 1,
      exceedsAccount: false,
    },
  },
  {
    name: "a tight stop needs more than the account without leverage",
    input: { accountSize: 1000, riskPercent: 5, entry: 100, stop: 99 },
    expected: {
      side: "long",
      units: 50,
      notional: 5000,
      margin: 5000,
      riskBudget: 50,
      riskAmount: 50,
      stopDistance: 1,
      stopDistancePercent: 1,
      leverage: 1,
      exceedsAccount: true,
    },
  },
  {
    name: "leverage divides the margin",
    input: { accountSize: 1000, riskPercent: 5, entry: 100, stop: 99, leverage: 10 },
    expected: {
      side: "long",
      units: 50,
      notional: 5000,
      margin: 500,
      riskBudget: 50,
      riskAmount: 50,
      stopDistance: 1,
      stopDistancePercent: 1,
      leverage: 10,
      exceedsAccount: false,
    },
  },
  {
    name: "prices below one",
    input: { accountSize: 100, riskPercent: 1, entry: 0.3, stop: 0.1, side: "long" },
    expected: {
      side: "long",
      units: 5,
      notional: 1.5,
      margin: 1.5,
      riskBudget: 1,
      riskAmount: 1,
      stopDistance: 0.2,
      stopDistancePercent: 66.6667,
      leverage: 1,
      exceedsAccount: false,
    },
  },
];

for (const c of cases) {
  test(`position-size: ${c.name}`, async () => {
    assert.deepEqual(await call(c.input as InputOf<typeof positionSize>), c.expected);
  });
}

test("position-size: the documented example is a real call", async () => {
  const out = await service.call(positionSizeEndpoint, positionSize.example.input);
  assert.deepEqual(dataOf(out), positionSize.example.output);
});

const rejected = [
  {
    name: "a long with its stop above the entry",
    input: { side: "long", stop: 110 },
    message: /long position needs its stop below/,
  },
  {
    name: "a short with its stop below the entry",
    input: { side: "short", stop: 90 },
    message: /short position needs its stop above/,
  },
  { name: "a stop equal to the entry", input: { stop: 100 }, message: /differ from the entry/ },
];
for (const c of rejected) {
  test(`position-size: ${c.name} is a 400 naming stop`, async () => {
    const out = await service.call("position-size", { accountSize: 1000, riskPercent: 1, entry: 100, ...c.input });
    assert.equal(out.status, 400);
    const error = errorOf(out);
    assert.match(error.message, c.message);
    assert.deepEqual(
      error.details!.issues!.map((i: any) => i.field),
      ["stop"],
    );
  });
}

const valid = "accountSize=1000&riskPercent=1&entry=100&stop=95";
const bad = [
  { name: "missing stop", query: "accountSize=1000&riskPercent=1&entry=100", field: "stop" },
  { name: "zero account size", query: valid.replace("accountSize=1000", "accountSize=0"), field: "accountSize" },
  { name: "risk of 0%", query: valid.replace("riskPercent=1", "riskPercent=0"), field: "riskPercent" },
  { name: "risk over 100%", query: valid.replace("riskPercent=1", "riskPercent=101"), field: "riskPercent" },
  { name: "negative entry", query: valid.replace("entry=100", "entry=-100"), field: "entry" },
  { name: "unknown side", query: `${valid}&side=up`, field: "side" },
  { name: "leverage below 1", query: `${valid}&leverage=0.5`, field: "leverage" },
  { name: "13 unit decimals", query: `${valid}&unitDecimals=13`, field: "unitDecimals" },
];
for (const c of bad) {
  test(`position-size: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/position-size?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("position-size: valid input without payment is a 402", async () => {
  const res = await service.request(`/v1/position-size?${valid}`);
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "10000");
});
