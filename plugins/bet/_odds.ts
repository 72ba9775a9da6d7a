import { formatUnits, parseUnits } from "viem";

/** Azuro odds are 12-decimal fixed point on chain (toolkit `ODDS_DECIMALS`). */
export const oddsDecimals = 12;
const one = 10n ** 12n;
const hundredth = 10n ** 10n;

/** The spec's slippage protection: minOdds sits 5% of the winnings below the quoted odds. */
export const slippagePercent = 5n;

export const oddsToRaw = (odds: string): bigint => parseUnits(odds, oddsDecimals);
export const rawToOdds = (raw: bigint): number => Number(formatUnits(raw, oddsDecimals));

/**
 * The toolkit's formula, `1 + (trunc2(odds) - 1) * (100 - slippage) / 100` truncated to 2 decimals, in bigint.
 * Its own `calcMinOdds` drops the decimals of one-decimal odds (1.5 gives 1.00), which removes the protection.
 */
export function minOddsRaw(oddsRaw: bigint, slippage = slippagePercent): bigint {
  const odds = oddsRaw - (oddsRaw % hundredth);
  if (odds <= one) return one;
  const min = one + ((odds - one) * (100n - slippage)) / 100n;
  return min - (min % hundredth);
}

/** Azuro's backend refuses stakes with more than 2 decimals (docs: "maximum 2 decimal signs"). */
export function hasAtMostTwoDecimals(amountRaw: bigint, tokenDecimals: number): boolean {
  return tokenDecimals <= 2 || amountRaw % 10n ** BigInt(tokenDecimals - 2) === 0n;
}
