import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import type { ChainInfo } from "../_shared/chains.ts";

/** What the code reads of DefiLlama's coin prices: `coins` always comes, without the coins it does not price. */
const LlamaPrice = v.object({
  price: v.number(),
  symbol: v.optional(v.string()),
  decimals: v.optional(v.number()),
  timestamp: v.number(),
  confidence: v.optional(v.number()),
});
export type LlamaPrice = v.InferOutput<typeof LlamaPrice>;
const CurrentPrices = v.object({ coins: v.record(v.string(), LlamaPrice) });
const HistoricalPoint = v.object({ timestamp: v.number(), price: v.number() });
type HistoricalPoint = v.InferOutput<typeof HistoricalPoint>;
const HistoricalPrices = v.object({ coins: v.record(v.string(), v.object({ prices: v.array(HistoricalPoint) })) });

/**
 * Current USD prices from DefiLlama for `<prefix>:<address>` or `coingecko:<id>` coins, keyed by the coin id in lower
 * case. Coins DefiLlama does not price are absent.
 */
export async function currentPrices(api: Upstream, coins: string[]): Promise<Map<string, LlamaPrice>> {
  const found = new Map<string, LlamaPrice>();
  if (coins.length === 0) return found;
  const body = await api.json(`/prices/current/${coins.join(",")}`, CurrentPrices);
  for (const [coin, price] of Object.entries(body.coins)) found.set(coin.toLowerCase(), price);
  return found;
}

/** A USD value rounded to the cent. */
export const cents = (usd: number) => Math.round(usd * 100) / 100;

/**
 * Current USD prices of a chain's tokens, and of its native coin when asked, in one request. Chains DefiLlama does
 * not price (testnets) ask nothing and price nothing.
 */
export async function chainPrices(api: Upstream, chain: ChainInfo, tokens: readonly string[], { native = false } = {}) {
  const coinOf = (token: string) => `${chain.llama}:${token}`;
  const nativeCoin = native && chain.nativePriceId ? `coingecko:${chain.nativePriceId}` : undefined;
  const prices = chain.llama
    ? await currentPrices(api, [...(nativeCoin ? [nativeCoin] : []), ...tokens.map(coinOf)])
    : new Map<string, LlamaPrice>();
  return {
    token: (address: string) => prices.get(coinOf(address).toLowerCase()),
    native: nativeCoin ? prices.get(nativeCoin) : undefined,
  };
}

/** USD prices of coins at moments (unix seconds); the answer gives the nearest point DefiLlama has, or null. */
export type PriceAt = (coin: string, timestamp: number) => number | null;

/**
 * Historical USD prices in one request (`/batchHistorical`, the coins and their timestamps as JSON). DefiLlama answers
 * each coin with the points it found near the asked moments; each moment takes the closest one.
 */
export async function historicalPrices(api: Upstream, wanted: Map<string, number[]>): Promise<PriceAt> {
  const points = new Map<string, HistoricalPoint[]>();
  if (wanted.size) {
    const coins = Object.fromEntries(
      [...wanted].map(([coin, times]) => [coin, [...new Set(times)].sort((a, b) => a - b)]),
    );
    const body = await api.json("/batchHistorical", HistoricalPrices, { query: { coins: JSON.stringify(coins) } });
    for (const [coin, found] of Object.entries(body.coins)) points.set(coin.toLowerCase(), found.prices);
  }
  return (coin, timestamp) => {
    let best: HistoricalPoint | undefined;
    for (const point of points.get(coin.toLowerCase()) ?? []) {
      if (!best || Math.abs(point.timestamp - timestamp) < Math.abs(best.timestamp - timestamp)) best = point;
    }
    return best?.price ?? null;
  };
}
