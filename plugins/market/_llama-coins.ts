import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";

export const LLAMA_COINS = "defillama-coins";

export interface LlamaPrice {
  price: number;
  symbol: string;
  timestamp: number;
  confidence?: number;
}

/** GET /prices/current/{coins}: current USD prices; keys like coingecko:bitcoin or ethereum:0x...; unknown coins are left out. */
export async function currentPrices(api: Upstream, coins: string[]): Promise<Record<string, LlamaPrice>> {
  const body = await api.json<{ coins: Record<string, LlamaPrice> }>(`/prices/current/${coins.join(",")}`);
  if (!body?.coins || typeof body.coins !== "object") throw upstreamFailed(LLAMA_COINS, "DefiLlama prices changed shape");
  return body.coins;
}

/** GET /prices/historical/{unix}/{coins}: USD prices at a past time. */
export async function historicalPrices(api: Upstream, unixSeconds: number, coins: string[]): Promise<Record<string, LlamaPrice>> {
  const body = await api.json<{ coins: Record<string, LlamaPrice> }>(`/prices/historical/${unixSeconds}/${coins.join(",")}`);
  if (!body?.coins || typeof body.coins !== "object") throw upstreamFailed(LLAMA_COINS, "DefiLlama historical prices changed shape");
  return body.coins;
}

/** GET /chart/{coins}?start=&span=&period=1d: a daily USD price series per coin. */
export async function dailyChart(api: Upstream, coin: string, startSeconds: number, span: number): Promise<{ timestamp: number; price: number }[]> {
  const body = await api.json<{ coins: Record<string, { prices: { timestamp: number; price: number }[] }> }>(`/chart/${coin}`, {
    query: { start: startSeconds, span, period: "1d" },
  });
  if (!body?.coins || typeof body.coins !== "object") throw upstreamFailed(LLAMA_COINS, "DefiLlama chart changed shape");
  const series = body.coins[coin]?.prices;
  if (!Array.isArray(series)) throw notFound(`DefiLlama has no chart for ${coin}`);
  return series;
}
