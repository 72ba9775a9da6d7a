import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { COINGECKO, coinUrl } from "./_coingecko.ts";

const o = v.optional;
/** What the code reads of CoinGecko's /search/trending. */
const Trending = v.object({
  coins: v.array(
    v.object({
      item: v.object({
        id: v.string(),
        name: v.string(),
        symbol: v.string(),
        market_cap_rank: v.nullish(v.number()),
        thumb: v.string(),
        data: o(v.object({ price: o(v.number()), price_change_percentage_24h: o(v.object({ usd: o(v.number()) })) })),
      }),
    }),
  ),
  nfts: o(
    v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        symbol: v.string(),
        native_currency_symbol: v.string(),
        floor_price_in_native_currency: v.number(),
        floor_price_24h_percentage_change: v.number(),
      }),
    ),
  ),
});

export default defineEndpoint({
  name: "trending-crypto",
  method: "GET",
  price: "$0.005",
  summary: "Coins and NFT collections trending in searches on CoinGecko over the last 24 h",
  description: "From CoinGecko's search/trending, in CoinGecko's order.",
  input: v.object({}),
  output: v.object({
    coins: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        symbol: v.string(),
        marketCapRank: v.nullable(v.number()),
        priceUsd: v.nullable(v.number()),
        change24hPercent: v.nullable(v.number()),
        thumb: v.string(),
        url: v.string(),
      }),
    ),
    nfts: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        symbol: v.string(),
        floorPrice: v.number(),
        floorCurrency: v.string(),
        floorChange24hPercent: v.number(),
      }),
    ),
  }),
  example: {
    input: {},
    output: {
      coins: [
        {
          id: "hyperliquid",
          name: "Hyperliquid",
          symbol: "HYPE",
          marketCapRank: 19,
          priceUsd: 21.4,
          change24hPercent: 12.41,
          thumb: "https://coin-images.coingecko.com/coins/images/50882/thumb/hyperliquid.jpg",
          url: "https://www.coingecko.com/en/coins/hyperliquid",
        },
      ],
      nfts: [
        {
          id: "pudgy-penguins",
          name: "Pudgy Penguins",
          symbol: "PPG",
          floorPrice: 10.69,
          floorCurrency: "ETH",
          floorChange24hPercent: -3.2,
        },
      ],
    },
  },
  cacheTtl: 600,
  upstreams: [COINGECKO],
  async handler({ upstream }) {
    const body = await upstream(COINGECKO).json("/search/trending", Trending);
    return {
      coins: body.coins.map(({ item }) => ({
        id: item.id,
        name: item.name,
        symbol: item.symbol,
        marketCapRank: item.market_cap_rank ?? null,
        priceUsd: typeof item.data?.price === "number" ? item.data.price : null,
        change24hPercent: item.data?.price_change_percentage_24h?.usd ?? null,
        thumb: item.thumb,
        url: coinUrl(item.id),
      })),
      nfts: (body.nfts ?? []).map((n) => ({
        id: n.id,
        name: n.name,
        symbol: n.symbol,
        floorPrice: n.floor_price_in_native_currency,
        floorCurrency: n.native_currency_symbol.toUpperCase(),
        floorChange24hPercent: n.floor_price_24h_percentage_change,
      })),
    };
  },
});
