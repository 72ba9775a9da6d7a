import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { COINGECKO, coinIds, simplePrices, splitIds } from "./_coingecko.ts";
import { currentPrices, LLAMA_COINS } from "./_llama-coins.ts";
import { firstVenue, SourcesReport } from "./_venues.ts";

const Price = v.object({
  id: v.string(),
  priceUsd: v.number(),
  marketCapUsd: v.nullable(v.number()),
  volume24hUsd: v.nullable(v.number()),
  change24hPercent: v.nullable(v.number()),
  updatedAt: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
});
type Price = v.InferOutput<typeof Price>;

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);

export default defineEndpoint({
  name: "crypto-price",
  method: "GET",
  price: "$0.005",
  mcp: true,
  summary: "Current USD price, market cap, 24 h volume and change of up to 50 coins by CoinGecko id",
  description:
    "From CoinGecko's simple/price; when CoinGecko fails or rate-limits, DefiLlama's price API answers instead (price only) and sources says so. " +
    "Ids neither source knows are listed under unknown; none known is a 404.",
  input: v.object({
    ids: v.optional(
      v.pipe(coinIds(50), v.description("Comma-separated CoinGecko ids, up to 50: bitcoin,ethereum,solana")),
      "bitcoin",
    ),
  }),
  output: v.object({ prices: v.array(Price), unknown: v.array(v.string()), sources: SourcesReport }),
  example: {
    input: { ids: "bitcoin" },
    output: {
      prices: [
        {
          id: "bitcoin",
          priceUsd: 99421,
          marketCapUsd: 1969392468375.6,
          volume24hUsd: 48792934612.3,
          change24hPercent: 2.31,
          updatedAt: "2025-01-15T11:59:40.000Z",
        },
      ],
      unknown: [],
      sources: { answered: ["coingecko"], missing: [] },
    },
  },
  cacheTtl: 30,
  upstreams: [COINGECKO, LLAMA_COINS],
  async handler({ input, upstream, signal }) {
    const ids = splitIds(input.ids);
    const { value: prices, sources } = await firstVenue<Price[]>(
      {
        [COINGECKO]: async () => {
          const body = await simplePrices(upstream(COINGECKO), ids, "usd");
          return ids
            .filter((id) => typeof body[id]?.usd === "number")
            .map((id) => ({
              id,
              priceUsd: body[id].usd as number,
              marketCapUsd: body[id].usd_market_cap ?? null,
              volume24hUsd: body[id].usd_24h_vol ?? null,
              change24hPercent: body[id].usd_24h_change ?? null,
              updatedAt: iso(body[id].last_updated_at),
            }));
        },
        [LLAMA_COINS]: async () => {
          const coins = await currentPrices(
            upstream(LLAMA_COINS),
            ids.map((id) => `coingecko:${id}`),
          );
          return ids
            .filter((id) => coins[`coingecko:${id}`])
            .map((id) => {
              const c = coins[`coingecko:${id}`];
              return {
                id,
                priceUsd: c.price,
                marketCapUsd: null,
                volume24hUsd: null,
                change24hPercent: null,
                updatedAt: iso(c.timestamp),
              };
            });
        },
      },
      signal,
    );
    if (prices.length === 0) throw notFound(`No price for ${ids.join(", ")}`);
    return { prices, unknown: ids.filter((id) => !prices.some((p) => p.id === id)), sources };
  },
});
