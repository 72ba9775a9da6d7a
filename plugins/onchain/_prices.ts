import type { Upstream } from "../../core/endpoint.ts";

export interface LlamaPrice {
  price: number;
  symbol?: string;
  decimals?: number;
  timestamp: number;
  confidence?: number;
}

/**
 * Current USD prices from DefiLlama for `<prefix>:<address>` or `coingecko:<id>` coins, keyed by the coin id in lower
 * case. Coins DefiLlama does not price are absent.
 */
export async function currentPrices(api: Upstream, coins: string[]): Promise<Map<string, LlamaPrice>> {
  const found = new Map<string, LlamaPrice>();
  if (coins.length === 0) return found;
  const body = await api.json<{ coins: Record<string, LlamaPrice> }>(`/prices/current/${coins.join(",")}`);
  for (const [coin, price] of Object.entries(body.coins ?? {})) found.set(coin.toLowerCase(), price);
  return found;
}

interface HistoricalPoint {
  timestamp: number;
  price: number;
  confidence?: number;
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
    const coins = Object.fromEntries([...wanted].map(([coin, times]) => [coin, [...new Set(times)].sort((a, b) => a - b)]));
    const body = await api.json<{ coins: Record<string, { symbol?: string; prices: HistoricalPoint[] }> }>("/batchHistorical", { query: { coins: JSON.stringify(coins) } });
    for (const [coin, found] of Object.entries(body.coins ?? {})) points.set(coin.toLowerCase(), found.prices ?? []);
  }
  return (coin, timestamp) => {
    let best: HistoricalPoint | undefined;
    for (const point of points.get(coin.toLowerCase()) ?? []) {
      if (!best || Math.abs(point.timestamp - timestamp) < Math.abs(best.timestamp - timestamp)) best = point;
    }
    return best?.price ?? null;
  };
}
