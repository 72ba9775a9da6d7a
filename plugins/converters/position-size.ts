import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { Money, centsNumber, priceNumber } from "./_money.ts";

const sides = ["long", "short"] as const;
const positive = (what: string) => v.pipe(v.number(), v.gtValue(0), v.maxValue(1e15), v.description(what));

export default defineEndpoint({
  name: "position-size",
  method: "GET",
  price: "$0.01",
  summary: "Position size from account size, risk percent, entry and stop: units, notional and money at risk",
  description:
    "units = accountSize × riskPercent / 100 ÷ |entry − stop|, rounded down to `unitDecimals` so the loss at the stop never exceeds the budget. " +
    "A stop below the entry means long, above means short. Fees and slippage are not included. Information, not advice.",
  input: v.object({
    accountSize: positive("Account equity in the quote currency"),
    riskPercent: v.pipe(
      v.number(),
      v.gtValue(0),
      v.maxValue(100),
      v.description("Share of the account to lose if the stop is hit, in percent, e.g. 1"),
    ),
    entry: positive("Entry price"),
    stop: positive("Stop-loss price"),
    side: v.optional(v.pipe(v.picklist(sides), v.description("Checked against the stop when given"))),
    leverage: v.optional(
      v.pipe(v.number(), v.minValue(1), v.maxValue(200), v.description("Leverage, for the margin needed")),
      1,
    ),
    unitDecimals: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(12),
        v.description("Decimals of the position size (0 for whole shares)"),
      ),
      8,
    ),
  }),
  output: v.object({
    side: v.picklist(sides),
    units: v.pipe(v.number(), v.description("Position size in units of the asset")),
    notional: v.pipe(v.number(), v.description("units × entry, rounded to cents")),
    margin: v.pipe(v.number(), v.description("notional ÷ leverage")),
    riskBudget: v.pipe(v.number(), v.description("accountSize × riskPercent / 100")),
    riskAmount: v.pipe(v.number(), v.description("Loss if the stop is hit: units × |entry − stop|")),
    stopDistance: v.number(),
    stopDistancePercent: v.pipe(v.number(), v.description("|entry − stop| ÷ entry × 100, 4 decimals")),
    leverage: v.number(),
    exceedsAccount: v.pipe(v.boolean(), v.description("True when the margin needed is larger than the account")),
  }),
  example: {
    input: { accountSize: 10_000, riskPercent: 1, entry: 50_000, stop: 48_000, leverage: 5, unitDecimals: 4 },
    output: {
      side: "long",
      units: 0.05,
      notional: 2500,
      margin: 500,
      riskBudget: 100,
      riskAmount: 100,
      stopDistance: 2000,
      stopDistancePercent: 4,
      leverage: 5,
      exceedsAccount: false,
    },
  },
  handler({ input }) {
    if (input.entry === input.stop) throw fieldError("stop", "The stop must differ from the entry");
    const side = input.stop < input.entry ? "long" : "short";
    if (input.side && input.side !== side) {
      throw fieldError(
        "stop",
        `A ${input.side} position needs its stop ${input.side === "long" ? "below" : "above"} the entry`,
      );
    }
    const entry = new Money(input.entry);
    const distance = entry.minus(input.stop).abs();
    const budget = new Money(input.accountSize).mul(input.riskPercent).div(100);
    const units = budget.div(distance).toDecimalPlaces(input.unitDecimals, Money.ROUND_DOWN);
    const notional = units.mul(entry);
    const margin = notional.div(input.leverage);
    return {
      side,
      units: units.toNumber(),
      notional: centsNumber(notional),
      margin: centsNumber(margin),
      riskBudget: centsNumber(budget),
      riskAmount: centsNumber(units.mul(distance)),
      stopDistance: priceNumber(distance),
      stopDistancePercent: distance.div(entry).mul(100).toDecimalPlaces(4).toNumber(),
      leverage: input.leverage,
      exceedsAccount: margin.gt(input.accountSize),
    } as const;
  },
});
