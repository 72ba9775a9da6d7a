import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export const COINGECKO = "coingecko";

/** Comma-separated CoinGecko coin ids (bitcoin,ethereum); at most `max`. */
export const coinIds = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max * 64),
    v.regex(
      new RegExp(`^[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*){0,${max - 1}}$`),
      `up to ${max} comma-separated CoinGecko ids such as bitcoin,ethereum`,
    ),
  );

export const splitIds = (ids: string) => [...new Set(ids.split(","))];

/** Unknown ids are simply absent ({} for none): anything but coins of prices is the wrong shape, never "unknown coin". */
const SimplePrices = v.record(v.string(), v.record(v.string(), v.nullable(v.number())));
export type SimplePrices = v.InferOutput<typeof SimplePrices>;

/** GET /simple/price with market cap, 24 h volume and change, and update time; unknown ids are left out. */
export async function simplePrices(api: Upstream, ids: string[], vs: string): Promise<SimplePrices> {
  return api.json("/simple/price", SimplePrices, {
    query: {
      ids: ids.join(","),
      vs_currencies: vs,
      include_market_cap: true,
      include_24hr_vol: true,
      include_24hr_change: true,
      include_last_updated_at: true,
    },
  });
}

const Series = v.array(v.tuple([v.number(), v.number()]));
const MarketChart = v.object({ prices: Series, market_caps: Series, total_volumes: Series });
export type MarketChart = v.InferOutput<typeof MarketChart>;

/** GET /coins/{id}/market_chart: price, market cap and volume series (5-minute to 1 day, hourly up to 90 days, daily beyond). */
export async function marketChart(api: Upstream, id: string, vs: string, days: number): Promise<MarketChart> {
  return api.json(`/coins/${encodeURIComponent(id)}/market_chart`, MarketChart, {
    query: { vs_currency: vs, days },
    notFoundAs404: true,
  });
}

const n = v.nullable(v.number());
const CoinMarket = v.object({
  id: v.string(),
  symbol: v.string(),
  name: v.string(),
  current_price: n,
  market_cap: n,
  market_cap_rank: n,
  total_volume: n,
  price_change_percentage_1h_in_currency: v.nullish(v.number()),
  price_change_percentage_24h_in_currency: v.nullish(v.number()),
  price_change_percentage_7d_in_currency: v.nullish(v.number()),
  last_updated: v.nullable(v.string()),
});
export type CoinMarket = v.InferOutput<typeof CoinMarket>;

/** GET /coins/markets: the top coins by market cap with 1 h, 24 h and 7 d changes. */
export async function coinMarkets(api: Upstream, perPage = 250): Promise<CoinMarket[]> {
  return api.json("/coins/markets", v.array(CoinMarket), {
    query: {
      vs_currency: "usd",
      order: "market_cap_desc",
      per_page: perPage,
      page: 1,
      price_change_percentage: "1h,24h,7d",
    },
  });
}

export const coinUrl = (id: string) => `https://www.coingecko.com/en/coins/${id}`;
