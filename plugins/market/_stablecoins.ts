import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export const LLAMA_STABLES = "defillama-stablecoins";

/** Circulating amounts by peg unit (peggedUSD...); absent when DefiLlama has none for the time. */
const Amounts = v.optional(v.record(v.string(), v.number()));
type Amounts = v.InferOutput<typeof Amounts>;
/** What the code reads of a stablecoin in DefiLlama's list. */
const PeggedAsset = v.object({
  id: v.string(),
  name: v.string(),
  symbol: v.string(),
  pegType: v.string(),
  pegMechanism: v.string(),
  price: v.nullish(v.number()),
  circulating: Amounts,
  circulatingPrevDay: Amounts,
  circulatingPrevWeek: Amounts,
  circulatingPrevMonth: Amounts,
});
export type PeggedAsset = v.InferOutput<typeof PeggedAsset>;

/** GET /stablecoins?includePrices=true: every stablecoin with its price and circulating supply now, a day, a week and a month ago. */
export async function peggedAssets(api: Upstream): Promise<PeggedAsset[]> {
  return (
    await api.json("/stablecoins", v.object({ peggedAssets: v.array(PeggedAsset) }), { query: { includePrices: true } })
  ).peggedAssets;
}

/** Circulating supply in the peg's unit (peggedUSD -> USD). */
export const supply = (amounts: Amounts, pegType: string) => amounts?.[pegType] ?? null;

export const stablecoinUrl = (id: string) => `https://defillama.com/stablecoin/${id}`;
