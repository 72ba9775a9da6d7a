import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { coinMarkets, COINGECKO, coinUrl, type CoinMarket } from "./_coingecko.ts";

const Mover = v.object({
  id: v.string(),
  symbol: v.string(),
  name: v.string(),
  priceUsd: v.nullable(v.number()),
  changePercent: v.number(),
  marketCapRank: v.nullable(v.number()),
  volume24hUsd: v.nullable(v.number()),
  url: v.string(),
});

const changeKey = {
  "1h": "price_change_percentage_1h_in_currency",
  "24h": "price_change_percentage_24h_in_currency",
  "7d": "price_change_percentage_7d_in_currency",
} as const;

export default defineEndpoint({
  name: "top-movers",
  method: "GET",
  price: "$0.005",
  summary: "Biggest gainers and losers among the top 250 coins by market cap over 1 h, 24 h or 7 d",
  description:
    "From CoinGecko's coins/markets (top 250 by market cap). Coins with under minVolume USD traded in 24 h are left out to avoid noise.",
  input: v.object({
    window: v.optional(v.pipe(v.picklist(["1h", "24h", "7d"]), v.description("Change window")), "24h"),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Gainers and losers each, 1-50")),
      10,
    ),
    minVolume: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1e12), v.description("Minimum 24 h volume in USD")),
      1_000_000,
    ),
  }),
  output: v.object({ window: v.string(), gainers: v.array(Mover), losers: v.array(Mover) }),
  example: {
    input: { window: "24h", limit: 1, minVolume: 1_000_000 },
    output: {
      window: "24h",
      gainers: [
        {
          id: "hyperliquid",
          symbol: "hype",
          name: "Hyperliquid",
          priceUsd: 21.4,
          changePercent: 12.41,
          marketCapRank: 19,
          volume24hUsd: 312345678,
          url: "https://www.coingecko.com/en/coins/hyperliquid",
        },
      ],
      losers: [
        {
          id: "pepe",
          symbol: "pepe",
          name: "Pepe",
          priceUsd: 0.00001721,
          changePercent: -6.2,
          marketCapRank: 25,
          volume24hUsd: 1523456789,
          url: "https://www.coingecko.com/en/coins/pepe",
        },
      ],
    },
  },
  cacheTtl: 180,
  upstreams: [COINGECKO],
  async handler({ input, upstream }) {
    const key = changeKey[input.window];
    const rows = (await coinMarkets(upstream(COINGECKO)))
      .filter((c) => typeof c[key] === "number" && (c.total_volume ?? 0) >= input.minVolume)
      .map((c: CoinMarket) => ({
        id: c.id,
        symbol: c.symbol,
        name: c.name,
        priceUsd: c.current_price,
        changePercent: c[key] as number,
        marketCapRank: c.market_cap_rank,
        volume24hUsd: c.total_volume,
        url: coinUrl(c.id),
      }))
      .sort((a, b) => b.changePercent - a.changePercent);
    return {
      window: input.window,
      gainers: rows.filter((r) => r.changePercent > 0).slice(0, input.limit),
      losers: rows
        .filter((r) => r.changePercent < 0)
        .reverse()
        .slice(0, input.limit),
    };
  },
});
