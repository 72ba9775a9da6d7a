import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { Decimal, fixed } from "./_decimal.ts";

const periods = { daily: 365, weekly: 52, monthly: 12, quarterly: 4, yearly: 1, continuous: 0 } as const;
type Compounding = keyof typeof periods;

const D = Decimal.clone({ precision: 40 });

/** APY from APR (fractions): (1 + APR/n)^n - 1, or e^APR - 1 when compounding is continuous. */
function aprToApy(apr: Decimal.Value, compounding: Compounding): Decimal {
  const n = periods[compounding];
  const rate = new D(apr);
  return n === 0 ? rate.exp().minus(1) : rate.dividedBy(n).plus(1).pow(n).minus(1);
}

/** APR from APY (fractions): n((1 + APY)^(1/n) - 1), or ln(1 + APY) when continuous. */
function apyToApr(apy: Decimal.Value, compounding: Compounding): Decimal {
  const n = periods[compounding];
  const rate = new D(apy).plus(1);
  return n === 0 ? rate.ln() : rate.pow(new D(1).dividedBy(n)).minus(1).times(n);
}

const percent = (label: string) =>
  v.optional(
    v.pipe(v.number(), v.minValue(-99.99), v.maxValue(1_000_000), v.description(`${label}, percent (5 means 5 %)`)),
  );

export default defineEndpoint({
  name: "apr-apy",
  method: "GET",
  price: "$0.005",
  summary: "Convert APR to APY or APY to APR for a compounding frequency, with the yield on an amount",
  description:
    "Give apr or apy in percent. APY = (1 + APR/n)^n - 1; continuous APY = e^APR - 1; the inverse for APY. Decimal arithmetic with 40 significant digits.",
  input: v.object({
    apr: percent("Nominal yearly rate"),
    apy: percent("Effective yearly rate"),
    compounding: v.optional(
      v.pipe(v.picklist(Object.keys(periods) as Compounding[]), v.description("How often interest compounds")),
      "daily",
    ),
    amount: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0),
        v.maxValue(1e15),
        v.description("Principal, any unit, for the interest over one year"),
      ),
      1000,
    ),
  }),
  output: v.object({
    apr: v.pipe(v.string(), v.description("Percent")),
    apy: v.pipe(v.string(), v.description("Percent")),
    compounding: v.string(),
    periodsPerYear: v.nullable(v.number()),
    amount: v.string(),
    interestAfterOneYear: v.string(),
  }),
  example: {
    input: { apr: 10, compounding: "daily", amount: 1000 },
    output: {
      apr: "10",
      apy: "10.515578161626",
      compounding: "daily",
      periodsPerYear: 365,
      amount: "1000",
      interestAfterOneYear: "105.155781616264",
    },
  },
  handler({ input }) {
    if ((input.apr === undefined) === (input.apy === undefined)) {
      throw badRequest("Give exactly one of apr and apy", {
        issues: [{ field: "apr", message: "give apr or apy, not both or neither" }],
      });
    }
    const apr =
      input.apr !== undefined
        ? new D(input.apr).dividedBy(100)
        : apyToApr(new D(input.apy!).dividedBy(100), input.compounding);
    const apy = input.apy !== undefined ? new D(input.apy).dividedBy(100) : aprToApy(apr, input.compounding);
    const n = periods[input.compounding];
    return {
      apr: fixed(apr.times(100), 12),
      apy: fixed(apy.times(100), 12),
      compounding: input.compounding,
      periodsPerYear: n === 0 ? null : n,
      amount: fixed(input.amount, 12),
      interestAfterOneYear: fixed(apy.times(input.amount), 12),
    };
  },
});
