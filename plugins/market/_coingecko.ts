import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const COINGECKO = "coingecko";

/** Comma-separated CoinGecko coin ids (bitcoin,ethereum); at most `max`. */
export const coinIds = (max: number) =>
  v.pipe(v.string(), v.maxLength(max * 64), v.regex(new RegExp(`^[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*){0,${max - 1}}$`), `up to ${max} comma-separated CoinGecko ids such as bitcoin,ethereum`));

export const splitIds = (ids: string) => [...new Set(ids.split(","))];

export type SimplePrices = Record<string, Record<string, number | null>>;

/** GET /simple/price with market cap, 24 h volume and change, and update time; unknown ids are left out. */
export async function simplePrices(api: Upstream, ids: string[], vs: string): Promise<SimplePrices> {
  const body = await api.json<SimplePrices>("/simple/price", {
    query: { ids: ids.join(","), vs_currencies: vs, include_market_cap: true, include_24hr_vol: true, include_24hr_change: true, include_last_updated_at: true },
  });
  if (!body || typeof body !== "object" || Array.isArray(body)) throw upstreamFailed(COINGECKO, "CoinGecko simple/price changed shape");
  return body;
}

export interface MarketChart {
  prices: [number, number][];
  market_caps: [number, number][];
  total_volumes: [number, number][];
}

/** GET /coins/{id}/market_chart: price, market cap and volume series (5-minute to 1 day, hourly up to 90 days, daily beyond). */
export async function marketChart(api: Upstream, id: string, vs: string, days: number): Promise<MarketChart> {
  const body = await api.json<MarketChart>(`/coins/${encodeURIComponent(id)}/market_chart`, { query: { vs_currency: vs, days }, notFoundAs404: true });
  if (!Array.isArray(body?.prices)) throw upstreamFailed(COINGECKO, "CoinGecko market_chart changed shape");
  return body;
}

export interface CoinMarket {
  id: string;
  symbol: string;
  name: string;
  current_price: number | null;
  market_cap: number | null;
  market_cap_rank: number | null;
  total_volume: number | null;
  price_change_percentage_1h_in_currency?: number | null;
  price_change_percentage_24h_in_currency?: number | null;
  price_change_percentage_7d_in_currency?: number | null;
  last_updated: string | null;
}

/** GET /coins/markets: the top coins by market cap with 1 h, 24 h and 7 d changes. */
export async function coinMarkets(api: Upstream, perPage = 250): Promise<CoinMarket[]> {
  const body = await api.json<CoinMarket[]>("/coins/markets", {
    query: { vs_currency: "usd", order: "market_cap_desc", per_page: perPage, page: 1, price_change_percentage: "1h,24h,7d" },
  });
  if (!Array.isArray(body)) throw upstreamFailed(COINGECKO, "CoinGecko coins/markets changed shape");
  return body;
}

export const coinUrl = (id: string) => `https://www.coingecko.com/en/coins/${id}`;
