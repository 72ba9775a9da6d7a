import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Money, centsNumber, toCents } from "./_money.ts";

const row = v.object({
  month: v.number(),
  payment: v.number(),
  principal: v.number(),
  interest: v.number(),
  balance: v.pipe(v.number(), v.description("Balance left after this payment")),
});
type Row = v.InferOutput<typeof row>;

export default defineEndpoint({
  name: "loan",
  method: "GET",
  price: "$0.005",
  summary: "Loan amortization: monthly payment, total interest and the full payment schedule",
  description:
    "Fixed-rate, monthly compounding (annual rate / 12), payments at the end of each month. " +
    "As lenders do, the payment and each month's interest are rounded to cents (half to even) and the last payment settles the remainder, " +
    "so the schedule adds up to the cent and ends at a zero balance.",
  input: v.object({
    principal: v.pipe(v.number(), v.gtValue(0), v.maxValue(1e12), v.description("Amount borrowed")),
    annualRatePercent: v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(100),
      v.description("Nominal annual interest rate in percent, e.g. 6.5"),
    ),
    months: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(600),
      v.description("Term in months (up to 50 years)"),
    ),
    schedule: v.optional(v.pipe(v.boolean(), v.description("Include the month-by-month schedule")), true),
  }),
  output: v.object({
    payment: v.pipe(v.number(), v.description("Regular monthly payment")),
    lastPayment: v.pipe(v.number(), v.description("Final payment, which settles any rounding remainder")),
    totalPaid: v.number(),
    totalInterest: v.number(),
    months: v.number(),
    schedule: v.optional(v.array(row)),
  }),
  example: {
    input: { principal: 1000, annualRatePercent: 12, months: 3 },
    output: {
      payment: 340.02,
      lastPayment: 340.03,
      totalPaid: 1020.07,
      totalInterest: 20.07,
      months: 3,
      schedule: [
        {
          month: 1,
          payment: 340.02,
          principal: 330.02,
          interest: 10,
          balance: 669.98,
        },
        {
          month: 2,
          payment: 340.02,
          principal: 333.32,
          interest: 6.7,
          balance: 336.66,
        },
        {
          month: 3,
          payment: 340.03,
          principal: 336.66,
          interest: 3.37,
          balance: 0,
        },
      ],
    },
  },
  handler({ input }) {
    const principal = toCents(new Money(input.principal));
    const monthlyRate = new Money(input.annualRatePercent).div(1200);
    const payment = toCents(levelPayment(principal, monthlyRate, input.months));
    const rows: Row[] = [];
    let balance = principal;
    let totalPaid = new Money(0);
    let totalInterest = new Money(0);
    let lastPayment = payment;
    for (let month = 1; month <= input.months; month++) {
      const interest = toCents(balance.mul(monthlyRate));
      const isLast = month === input.months;
      const paid = isLast ? balance.plus(interest) : payment;
      const principalPart = paid.minus(interest);
      balance = balance.minus(principalPart);
      totalPaid = totalPaid.plus(paid);
      totalInterest = totalInterest.plus(interest);
      if (isLast) lastPayment = paid;
      if (input.schedule) {
        rows.push({
          month,
          payment: paid.toNumber(),
          principal: principalPart.toNumber(),
          interest: interest.toNumber(),
          balance: balance.toNumber(),
        });
      }
    }
    return {
      payment: centsNumber(payment),
      lastPayment: centsNumber(lastPayment),
      totalPaid: centsNumber(totalPaid),
      totalInterest: centsNumber(totalInterest),
      months: input.months,
      ...(input.schedule ? { schedule: rows } : {}),
    };
  },
});

/** The annuity payment P·r / (1 − (1 + r)^−n), or P / n without interest. */
function levelPayment(principal: Money, rate: Money, months: number): Money {
  if (rate.isZero()) return principal.div(months);
  return principal.mul(rate).div(new Money(1).minus(rate.plus(1).pow(-months)));
}
