import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { Decimal } from "./_decimal.ts";
import { IlResult, ilReport } from "./_il.ts";

export default defineEndpoint({
  name: "il-calc",
  method: "GET",
  price: "$0.005",
  summary:
    "Impermanent loss of a 50/50 pool for a price move, with LP vs hold value, fee income and break-even fee APR",
  description:
    "Give either priceChangePercent (the move of one asset against the other) or entryPrice and exitPrice. IL = 2*sqrt(r)/(1+r) - 1 for a 50/50 constant-product pool; " +
    "decimal arithmetic throughout. Concentrated-liquidity (v3) ranges are not modelled.",
  input: v.object({
    priceChangePercent: v.optional(
      v.pipe(
        v.number(),
        v.minValue(-99.999999),
        v.maxValue(1_000_000),
        v.description("Price move of one asset against the other, percent (e.g. 50 or -30)"),
      ),
    ),
    entryPrice: v.optional(
      v.pipe(v.number(), v.gtValue(0), v.description("Price at entry (with exitPrice, instead of priceChangePercent)")),
    ),
    exitPrice: v.optional(v.pipe(v.number(), v.gtValue(0), v.description("Price now or at exit"))),
    amount: v.optional(
      v.pipe(v.number(), v.gtValue(0), v.maxValue(1e15), v.description("Value deposited, any unit (e.g. USD)")),
      1000,
    ),
    feeApr: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(100_000), v.description("Pool fee APR, percent")),
      0,
    ),
    days: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(3650),
        v.description("Days in the pool, for fee income"),
      ),
      30,
    ),
  }),
  output: IlResult,
  example: {
    input: { priceChangePercent: 100, amount: 1000, feeApr: 0, days: 30 },
    output: {
      model: "50/50 constant product (Uniswap v2 style), fees simple over the period",
      priceRatio: "2",
      impermanentLossPercent: "-5.719096",
      amount: "1000",
      holdValue: "1500",
      lpValue: "1414.21356237",
      feeIncome: "0",
      netVsHoldPercent: "-5.719096",
      breakEvenFeeAprPercent: "104.373499",
    },
  },
  handler({ input }) {
    const ratio = priceRatio(input);
    return ilReport(ratio, new Decimal(input.amount), new Decimal(input.feeApr), input.days);
  },
});

function priceRatio(input: { priceChangePercent?: number; entryPrice?: number; exitPrice?: number }): Decimal {
  const hasPrices = input.entryPrice !== undefined || input.exitPrice !== undefined;
  if (hasPrices && input.priceChangePercent !== undefined)
    throw badRequest("Give priceChangePercent or entryPrice and exitPrice, not both", {
      issues: [{ field: "priceChangePercent", message: "give this or the two prices" }],
    });
  if (hasPrices) {
    if (input.entryPrice === undefined || input.exitPrice === undefined) {
      const field = input.entryPrice === undefined ? "entryPrice" : "exitPrice";
      throw badRequest(`${field} is needed with the other price`, {
        issues: [{ field, message: "needed with the other price" }],
      });
    }
    return new Decimal(input.exitPrice).dividedBy(input.entryPrice);
  }
  if (input.priceChangePercent === undefined)
    throw badRequest("Give priceChangePercent, or entryPrice and exitPrice", {
      issues: [{ field: "priceChangePercent", message: "required unless both prices are given" }],
    });
  return new Decimal(input.priceChangePercent).dividedBy(100).plus(1);
}
