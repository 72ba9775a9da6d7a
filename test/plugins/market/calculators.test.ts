import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "./_market.ts";
import { issuesOf } from "../../helpers/expect.ts";
import aprApy from "../../../plugins/market/apr-apy.ts";
import ilCalc from "../../../plugins/market/il-calc.ts";

const service = await startTestService({ plugins: ["market"] });

test("il-calc: a doubling costs 5.72 % against holding, in decimal", async () => {
  const data = dataOf(await service.call(ilCalc, { priceChangePercent: 100 }));
  assert.equal(data.impermanentLossPercent, "-5.719096");
  assert.equal(data.holdValue, "1500");
  assert.equal(data.lpValue, "1414.21356237");
  assert.equal(data.breakEvenFeeAprPercent, "104.373499");
});

test("il-calc: entry and exit prices, fees offsetting the loss", async () => {
  const data = dataOf(
    await service.call(ilCalc, { entryPrice: 2000, exitPrice: 1500, amount: 10000, feeApr: 30, days: 60 }),
  );
  assert.equal(data.priceRatio, "0.75");
  assert.equal(data.impermanentLossPercent, "-1.025668");
  assert.equal(data.feeIncome, "493.15068493");
  assert.ok(Number(data.netVsHoldPercent) > 0);
});

test("il-calc: no move, no loss", async () => {
  const data = dataOf(await service.call(ilCalc, { priceChangePercent: 0 }));
  assert.equal(data.impermanentLossPercent, "0");
  assert.equal(data.breakEvenFeeAprPercent, null);
});

test("il-calc: missing or conflicting inputs are 400s naming the field", async () => {
  for (const [input, field] of [
    [{}, "priceChangePercent"],
    [{ entryPrice: 1 }, "exitPrice"],
    [{ priceChangePercent: 5, entryPrice: 1, exitPrice: 2 }, "priceChangePercent"],
  ] as const) {
    const out = await service.call(ilCalc, input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === field),
      JSON.stringify(out.body),
    );
  }
  await expectFree400(await service.request("/v1/il-calc?priceChangePercent=-100"), "priceChangePercent");
  await expectFree400(await service.request("/v1/il-calc?priceChangePercent=10&days=0"), "days");
});

test("apr-apy: 10 % APR compounded daily", async () => {
  assert.deepEqual(dataOf(await service.call(aprApy, { apr: 10 })), {
    apr: "10",
    apy: "10.515578161626",
    compounding: "daily",
    periodsPerYear: 365,
    amount: "1000",
    interestAfterOneYear: "105.155781616264",
  });
});

test("apr-apy: continuous and the inverse direction", async () => {
  assert.equal(dataOf(await service.call(aprApy, { apr: 5, compounding: "continuous" })).apy, "5.127109637602");
  const monthly = dataOf(await service.call(aprApy, { apy: 10, compounding: "monthly" }));
  assert.equal(monthly.apr, "9.568968514684");
  assert.equal(monthly.periodsPerYear, 12);
});

test("apr-apy: both or neither rate is a 400; an unknown compounding is a free 400", async () => {
  assert.equal((await service.call(aprApy, {})).status, 400);
  assert.equal((await service.call(aprApy, { apr: 1, apy: 1 })).status, 400);
  await expectFree400(await service.request("/v1/apr-apy?apr=5&compounding=hourly"), "compounding");
});
