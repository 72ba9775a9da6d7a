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
