import { Decimal } from "decimal.js";

/** Decimal arithmetic with enough digits for money, rounding half to even (banker's rounding). */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Money = InstanceType<typeof Money>;

/** Rounds to cents, half to even. */
export const toCents = (x: Money): Money => x.toDecimalPlaces(2, Money.ROUND_HALF_EVEN);

/** A JSON number for an amount already rounded to cents. */
export const centsNumber = (x: Money): number => toCents(x).toNumber();

/** A JSON number for a price, keeping 12 significant digits (prices can be tiny). */
export const priceNumber = (x: Money): number => x.toSignificantDigits(12, Money.ROUND_HALF_EVEN).toNumber();
