import * as v from "valibot";
import { Decimal } from "decimal.js";
import { PAIR_TOKENS } from "../_shared/symbols.ts";
import { baseAsset } from "../_shared/symbols.ts";

/** A figure that is null when the part it comes from failed or did not report it. */
export const figure = (description: string) => v.pipe(v.nullable(v.number()), v.description(description));
export const decimalFigure = (description: string) =>
  v.pipe(v.nullable(v.string()), v.description(`${description} (decimal string, upstream precision)`));

export const Level = v.pipe(v.picklist(["low", "medium", "high"]), v.description("low, medium or high"));
export type Level = "low" | "medium" | "high";

export const CoinId = v.pipe(
  v.string(),
  v.maxLength(100),
  v.regex(/^[a-z0-9][a-z0-9-]*$/, "a CoinGecko id such as bitcoin"),
  v.description("CoinGecko id of the asset, for symbols the bundle does not know (e.g. dogecoin)"),
);

/** The asset of a symbol (BTCUSDT -> BTC) and its CoinGecko id, given or known. */
export function assetOf(symbol: string, coin?: string) {
  const asset = baseAsset(symbol);
  return { asset, coin: coin ?? PAIR_TOKENS[asset] };
}

/** The mean of decimal strings, to 4 places; null for none. */
export function meanOf(values: (string | null | undefined)[]): string | null {
  const present = values.filter((x): x is string => typeof x === "string" && x !== "");
  if (!present.length) return null;
  return present
    .reduce((sum, x) => sum.plus(x), new Decimal(0))
    .dividedBy(present.length)
    .toDecimalPlaces(4)
    .toString();
}

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Percent change from the first to the last value. */
export const changePercent = (from: number | undefined, to: number | undefined) =>
  from && to !== undefined ? round2(((to - from) / from) * 100) : null;

/** Part data by name, as a bundle's summarize receives it (unknown shapes, read through small local interfaces). */
export type PartDataOf<K extends string> = { [P in K]?: unknown };
