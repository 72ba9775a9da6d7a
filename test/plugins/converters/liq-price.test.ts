import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import liqPrice from "../../../plugins/converters/liq-price.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import liqPriceEndpoint from "../../../plugins/converters/liq-price.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: InputOf<typeof liqPriceEndpoint>) => {
  const out = await service.call(liqPriceEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

const cases = [
  // 60,000 × 0.9 / 0.995 = 54,271.356783919...; 12 significant digits.
  {
    name: "a 10x long with 0.5% maintenance",
    input: { side: "long", entry: 60_000, leverage: 10 },
    liquidation: 54271.3567839,
    bankruptcy: 54000,
    distance: 9.5477,
  },
  // 2,000 × 1.05 / 1.01 = 2,079.2079207920...
  {
    name: "a 20x short with 1% maintenance",
    input: { side: "short", entry: 2000, leverage: 20, maintenanceMarginPercent: 1 },
    liquidation: 2079.20792079,
    bankruptcy: 2100,
    distance: 3.9604,
  },
  {
    name: "no maintenance margin: liquidation at bankruptcy",
    input: { side: "long", entry: 100, leverage: 4, maintenanceMarginPercent: 0 },
    liquidation: 75,
    bankruptcy: 75,
    distance: 25,
  },
  {
    name: "a 1x long can only be liquidated at zero",
    input: { side: "long", entry: 100, leverage: 1 },
    liquidation: 0,
    bankruptcy: 0,
    distance: 100,
  },
  {
    name: "a 1x short without maintenance margin is liquidated at double the entry",
    input: { side: "short", entry: 100, leverage: 1, maintenanceMarginPercent: 0 },
    liquidation: 200,
    bankruptcy: 200,
    distance: 100,
  },
  {
    name: "tiny prices keep their digits",
    input: { side: "long", entry: 0.00001234, leverage: 5, maintenanceMarginPercent: 0 },
    liquidation: 0.000009872,
    bankruptcy: 0.000009872,
    distance: 20,
  },
];

for (const c of cases) {
  test(`liq-price: ${c.name}`, async () => {
    const data = await call(c.input as InputOf<typeof liqPrice>);
    assert.equal(data.side, c.input.side);
    assert.equal(data.liquidationPrice, c.liquidation);
    assert.equal(data.bankruptcyPrice, c.bankruptcy);
    assert.equal(data.distancePercent, c.distance);
    assert.match(
      data.formula,
      c.input.side === "long"
        ? /entry × \(1 − 1\/leverage\) ÷ \(1 − mmr\)/
        : /entry × \(1 \+ 1\/leverage\) ÷ \(1 \+ mmr\)/,
    );
    assert.match(data.formula, /Isolated margin/);
  });
}

test("liq-price: the documented example is a real call", async () => {
  const out = await service.call(liqPriceEndpoint, liqPrice.example.input);
  assert.deepEqual(dataOf(out), liqPrice.example.output);
});

test("liq-price: leverage whose initial margin does not exceed the maintenance margin is a 400 naming leverage", async () => {
  const out = await service.call(liqPriceEndpoint, {
    side: "long",
    entry: 100,
    leverage: 200,
    maintenanceMarginPercent: 0.5,
  });
  assert.equal(out.status, 400);
  const error = errorOf(out);
  assert.match(error.message, /0\.5%\) does not exceed the maintenance margin/);
  assert.deepEqual(
    error.details!.issues!.map((i: any) => i.field),
    ["leverage"],
  );
});

const bad = [
  { name: "missing side", query: "entry=100&leverage=10", field: "side" },
  { name: "unknown side", query: "side=up&entry=100&leverage=10", field: "side" },
  { name: "zero entry", query: "side=long&entry=0&leverage=10", field: "entry" },
  { name: "leverage below 1", query: "side=long&entry=100&leverage=0.5", field: "leverage" },
  { name: "leverage over 200", query: "side=long&entry=100&leverage=201", field: "leverage" },
  {
    name: "maintenance margin over 50%",
    query: "side=long&entry=100&leverage=10&maintenanceMarginPercent=60",
    field: "maintenanceMarginPercent",
  },
];
for (const c of bad) {
  test(`liq-price: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/liq-price?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("liq-price: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/liq-price?side=long&entry=60000&leverage=10");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "10000");
});
