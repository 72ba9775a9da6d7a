import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import loan from "../../../plugins/converters/loan.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import loanEndpoint from "../../../plugins/converters/loan.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: InputOf<typeof loanEndpoint>) => {
  const out = await service.call(loanEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};
const cents = (x: number) => Math.round(x * 100);

test("loan: 1,000 at 12% over 3 months, worked by hand", async () => {
  // r = 1%: payment = 1000 × 0.01 / (1 − 1.01^−3) = 340.0221...; interest 10.00, 6.6998 -> 6.70, 3.3666 -> 3.37.
  assert.deepEqual(await call({ principal: 1000, annualRatePercent: 12, months: 3 }), {
    payment: 340.02,
    lastPayment: 340.03,
    totalPaid: 1020.07,
    totalInterest: 20.07,
    months: 3,
    schedule: [
      { month: 1, payment: 340.02, principal: 330.02, interest: 10, balance: 669.98 },
      { month: 2, payment: 340.02, principal: 333.32, interest: 6.7, balance: 336.66 },
      { month: 3, payment: 340.03, principal: 336.66, interest: 3.37, balance: 0 },
    ],
  });
});

test("loan: a 30-year mortgage of 200,000 at 6.5% pays 1,264.14 a month", async () => {
  const data = await call({ principal: 200_000, annualRatePercent: 6.5, months: 360 });
  assert.equal(data.payment, 1264.14);
  assert.equal(data.schedule!.length, 360);
  assert.equal(data.schedule!.at(-1)!.balance, 0);
  assert.equal(cents(data.totalPaid), 359 * cents(1264.14) + cents(data.lastPayment));
  assert.equal(cents(data.totalInterest), cents(data.totalPaid) - cents(200_000));
  const principalRepaid = data.schedule!.reduce((sum: number, row: any) => sum + cents(row.principal), 0);
  assert.equal(principalRepaid, cents(200_000), "the principal column adds up to the loan, to the cent");
  for (const row of data.schedule!) assert.equal(cents(row.payment), cents(row.principal) + cents(row.interest));
});

test("loan: half-cent payments round to even", async () => {
  // 0.25 over 2 months without interest: 0.125 -> 0.12 (half to even), the last payment settles 0.13.
  const data = await call({ principal: 0.25, annualRatePercent: 0, months: 2 });
  assert.deepEqual([data.payment, data.lastPayment, data.totalPaid], [0.12, 0.13, 0.25]);
});

test("loan: no interest splits the principal evenly", async () => {
  const data = await call({ principal: 100, annualRatePercent: 0, months: 3 });
  assert.deepEqual([data.payment, data.lastPayment, data.totalInterest, data.totalPaid], [33.33, 33.34, 0, 100]);
});

test("loan: schedule=false leaves the schedule out", async () => {
  const data = await call({ principal: 1000, annualRatePercent: 12, months: 3, schedule: false });
  assert.equal("schedule" in data, false);
  assert.equal(data.totalInterest, 20.07);
});

test("loan: the documented example is a real call", async () => {
  const out = await service.call(loanEndpoint, loan.example.input);
  assert.deepEqual(dataOf(out), loan.example.output);
});

const bad = [
  { name: "missing principal", query: "annualRatePercent=5&months=12", field: "principal" },
  { name: "zero principal", query: "principal=0&annualRatePercent=5&months=12", field: "principal" },
  { name: "negative rate", query: "principal=1000&annualRatePercent=-1&months=12", field: "annualRatePercent" },
  { name: "rate over 100%", query: "principal=1000&annualRatePercent=101&months=12", field: "annualRatePercent" },
  { name: "more than 600 months", query: "principal=1000&annualRatePercent=5&months=601", field: "months" },
  { name: "fractional months", query: "principal=1000&annualRatePercent=5&months=12.5", field: "months" },
  { name: "principal not a number", query: "principal=lots&annualRatePercent=5&months=12", field: "principal" },
];
for (const c of bad) {
  test(`loan: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/loan?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("loan: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/loan?principal=1000&annualRatePercent=12&months=3");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "5000");
});
