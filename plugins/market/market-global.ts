import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { COINGECKO } from "./_coingecko.ts";

/** What the code reads of CoinGecko's /global (updated_at in unix seconds). */
const Global = v.object({
  data: v.object({
    active_cryptocurrencies: v.number(),
    markets: v.number(),
    total_market_cap: v.object({ usd: v.number() }),
    total_volume: v.object({ usd: v.number() }),
    market_cap_percentage: v.record(v.string(), v.number()),
    market_cap_change_percentage_24h_usd: v.number(),
    updated_at: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8_640_000_000_000)),
  }),
});

export default defineEndpoint({
  name: "market-global",
  method: "GET",
  price: "$0.005",
  summary: "Total crypto market cap and volume, BTC and ETH dominance, active coins and markets",
  description: "From CoinGecko's /global.",
  input: v.object({}),
  output: v.object({
    totalMarketCapUsd: v.number(),
    totalVolume24hUsd: v.number(),
    marketCapChange24hPercent: v.number(),
    dominancePercent: v.pipe(
      v.record(v.string(), v.number()),
      v.description("Share of total market cap by coin symbol (top 10)"),
    ),
    activeCryptocurrencies: v.number(),
    markets: v.number(),
    updatedAt: v.string(),
  }),
  example: {
    input: {},
    output: {
      totalMarketCapUsd: 3512345678901.2,
      totalVolume24hUsd: 123456789012.3,
      marketCapChange24hPercent: 1.92,
      dominancePercent: { btc: 56.1, eth: 11.4 },
      activeCryptocurrencies: 16412,
      markets: 1198,
      updatedAt: "2025-01-15T11:58:20.000Z",
    },
  },
  cacheTtl: 300,
  upstreams: [COINGECKO],
  async handler({ upstream }) {
    const { data } = await upstream(COINGECKO).json("/global", Global);
    if (typeof data?.total_market_cap?.usd !== "number")
      throw upstreamFailed(COINGECKO, "CoinGecko /global changed shape");
    return {
      totalMarketCapUsd: data.total_market_cap.usd,
      totalVolume24hUsd: data.total_volume.usd,
      marketCapChange24hPercent: data.market_cap_change_percentage_24h_usd,
      dominancePercent: data.market_cap_percentage,
      activeCryptocurrencies: data.active_cryptocurrencies,
      markets: data.markets,
      updatedAt: new Date(data.updated_at * 1000).toISOString(),
    };
  },
});
