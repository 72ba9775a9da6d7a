import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { Money, priceNumber } from "./_money.ts";

const sides = ["long", "short"] as const;

const formulas = {
  long: "liquidation = entry × (1 − 1/leverage) ÷ (1 − mmr); bankruptcy = entry × (1 − 1/leverage)",
  short: "liquidation = entry × (1 + 1/leverage) ÷ (1 + mmr); bankruptcy = entry × (1 + 1/leverage)",
};
const explanation =
  "Isolated margin on a linear (USDT-margined) contract: initial margin = entry × size ÷ leverage. Liquidation happens when " +
  "margin + unrealized PnL falls to the maintenance margin, mmr × size × price (mmr = maintenanceMarginPercent / 100). " +
  "Solving for the price gives the formula. Fees, funding, added margin and tiered maintenance amounts are ignored, so an " +
  "exchange may liquidate slightly earlier.";

export default defineEndpoint({
  name: "liq-price",
  method: "GET",
  price: "$0.01",
  summary:
    "Liquidation and bankruptcy price of an isolated-margin long or short from entry, leverage and maintenance margin",
  description: `${explanation} Long: ${formulas.long}. Short: ${formulas.short}.`,
  input: v.object({
    side: v.pipe(v.picklist(sides), v.description("long or short")),
    entry: v.pipe(v.number(), v.gtValue(0), v.maxValue(1e15), v.description("Entry price")),
    leverage: v.pipe(v.number(), v.minValue(1), v.maxValue(200), v.description("Leverage, e.g. 10")),
    maintenanceMarginPercent: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0),
        v.maxValue(50),
        v.description("Maintenance margin rate in percent (0.5 is common on the lowest tier)"),
      ),
      0.5,
    ),
  }),
  output: v.object({
    side: v.picklist(sides),
    liquidationPrice: v.number(),
    bankruptcyPrice: v.pipe(v.number(), v.description("Price at which the whole initial margin is lost")),
    distancePercent: v.pipe(
      v.number(),
      v.description("Move from entry to liquidation, in percent of entry (4 decimals)"),
    ),
    formula: v.pipe(v.string(), v.description("The formula used and its assumptions")),
  }),
  example: {
    input: { side: "long", entry: 60_000, leverage: 10, maintenanceMarginPercent: 0.5 },
    output: {
      side: "long",
      liquidationPrice: 54271.3567839,
      bankruptcyPrice: 54000,
      distancePercent: 9.5477,
      formula:
        "liquidation = entry × (1 − 1/leverage) ÷ (1 − mmr); bankruptcy = entry × (1 − 1/leverage). Isolated margin on a linear (USDT-margined) contract: initial margin = entry × size ÷ leverage. Liquidation happens when margin + unrealized PnL falls to the maintenance margin, mmr × size × price (mmr = maintenanceMarginPercent / 100). Solving for the price gives the formula. Fees, funding, added margin and tiered maintenance amounts are ignored, so an exchange may liquidate slightly earlier.",
    },
  },
  handler({ input }) {
    const entry = new Money(input.entry);
    const initialRate = new Money(1).div(input.leverage);
    const mmr = new Money(input.maintenanceMarginPercent).div(100);
    if (mmr.gte(initialRate)) {
      throw fieldError(
        "leverage",
        `At ${input.leverage}x the initial margin (${initialRate.mul(100).toSignificantDigits(6)}%) does not exceed the maintenance margin; the position would be liquidated at once`,
      );
    }
    const isLong = input.side === "long";
    const bankruptcy = isLong ? entry.mul(new Money(1).minus(initialRate)) : entry.mul(initialRate.plus(1));
    const liquidation = isLong ? bankruptcy.div(new Money(1).minus(mmr)) : bankruptcy.div(mmr.plus(1));
    return {
      side: input.side,
      liquidationPrice: priceNumber(liquidation),
      bankruptcyPrice: priceNumber(bankruptcy),
      distancePercent: liquidation.minus(entry).abs().div(entry).mul(100).toDecimalPlaces(4).toNumber(),
      formula: `${formulas[input.side]}. ${explanation}`,
    };
  },
});
