import * as v from "valibot";
import { type Decimal, fixed } from "./_decimal.ts";

/** Impermanent loss of a 50/50 constant-product pool when one asset's price moves by the ratio r: 2*sqrt(r)/(1+r) - 1. */
export function impermanentLoss(ratio: Decimal): Decimal {
  return ratio.sqrt().times(2).dividedBy(ratio.plus(1)).minus(1);
}

export const IlResult = v.object({
  model: v.string(),
  priceRatio: v.pipe(v.string(), v.description("New price / entry price of the moving asset against the other")),
  impermanentLossPercent: v.pipe(v.string(), v.description("LP value versus holding, negative is a loss")),
  amount: v.string(),
  holdValue: v.pipe(v.string(), v.description("Value had the two assets been held, in the same unit as amount")),
  lpValue: v.pipe(v.string(), v.description("Value in the pool before fees")),
  feeIncome: v.string(),
  netVsHoldPercent: v.pipe(v.string(), v.description("LP value plus fees versus holding")),
  breakEvenFeeAprPercent: v.nullable(
    v.pipe(v.string(), v.description("Fee APR that would offset the loss over the period; null with no loss")),
  ),
});

/** The calculation shared with impermanent-loss-live: all in decimal arithmetic. */
export function ilReport(
  ratio: Decimal,
  amount: Decimal,
  feeAprPercent: Decimal,
  days: number,
): v.InferOutput<typeof IlResult> {
  const il = impermanentLoss(ratio);
  // Half the amount in each asset at entry; holding moves with the average of the two prices.
  const hold = amount.times(ratio.plus(1)).dividedBy(2);
  const lp = hold.times(il.plus(1));
  const fees = amount.times(feeAprPercent).dividedBy(100).times(days).dividedBy(365);
  const loss = hold.minus(lp);
  return {
    model: "50/50 constant product (Uniswap v2 style), fees simple over the period",
    priceRatio: fixed(ratio, 8),
    impermanentLossPercent: fixed(il.times(100), 6),
    amount: fixed(amount, 8),
    holdValue: fixed(hold, 8),
    lpValue: fixed(lp, 8),
    feeIncome: fixed(fees, 8),
    netVsHoldPercent: fixed(lp.plus(fees).dividedBy(hold).minus(1).times(100), 6),
    breakEvenFeeAprPercent: loss.gt(0) ? fixed(loss.dividedBy(amount).times(365).dividedBy(days).times(100), 6) : null,
  };
}
