import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { openMarkets, POLYMARKET } from "./_polymarket.ts";

const Market = v.object({
  id: v.string(),
  question: v.string(),
  outcomes: v.array(
    v.object({
      name: v.string(),
      price: v.pipe(v.string(), v.description("Price of one share in USDC = implied probability")),
    }),
  ),
  volume24hUsd: v.number(),
  liquidityUsd: v.nullable(v.number()),
  endDate: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
  url: v.string(),
});

export default defineEndpoint({
  name: "predictions",
  method: "GET",
  price: "$0.01",
  summary: "Busiest open Polymarket prediction markets with outcome prices (implied probabilities)",
  description:
    "From Polymarket's Gamma API: open markets by 24 h volume, those under minVolume left out. Prices are strings as Polymarket gives them.",
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Markets to return, 1-100")),
      25,
    ),
    minVolume: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1e12), v.description("Minimum 24 h volume in USD")),
      100_000,
    ),
  }),
  output: v.object({ minVolume: v.number(), markets: v.array(Market) }),
  example: {
    input: { limit: 1, minVolume: 100_000 },
    output: {
      minVolume: 100_000,
      markets: [
        {
          id: "516710",
          question: "Fed decreases interest rates by 25 bps after January 2025 meeting?",
          outcomes: [
            { name: "Yes", price: "0.0035" },
            { name: "No", price: "0.9965" },
          ],
          volume24hUsd: 4123456.78,
          liquidityUsd: 1987654.32,
          endDate: "2025-01-29T12:00:00Z",
          url: "https://polymarket.com/market/fed-decreases-interest-rates-by-25-bps-after-january-2025-meeting",
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: [POLYMARKET],
  async handler({ input, upstream }) {
    const markets = (await openMarkets(upstream(POLYMARKET))).filter((m) => m.volume24hUsd >= input.minVolume);
    return { minVolume: input.minVolume, markets: markets.slice(0, input.limit) };
  },
});
