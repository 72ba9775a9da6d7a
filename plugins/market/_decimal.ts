import { Decimal } from "decimal.js";

export { Decimal };

/** A funding rate per interval as a yearly percentage: rate x (24 / intervalHours) x 365 x 100. */
export function annualizedPercent(rate: string, intervalHours: number): string {
  return fixed(new Decimal(rate).times(24).dividedBy(intervalHours).times(365).times(100), 4);
}

/** A decimal as a plain string with at most `places` decimals, trailing zeros trimmed. */
export function fixed(value: Decimal.Value, places: number): string {
  return new Decimal(value).toDecimalPlaces(places).toFixed();
}

/** A float-free median of decimal strings. */
export function median(values: Decimal.Value[]): Decimal {
  const sorted = values.map((x) => new Decimal(x)).sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).dividedBy(2);
}
