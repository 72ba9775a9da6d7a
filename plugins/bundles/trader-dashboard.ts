import * as v from "valibot";
import { defineBundle } from "./_compose.ts";
import { assetOf, decimalFigure, figure } from "./_digest.ts";
import { SymbolInput } from "./_market-parts.ts";
import { examples } from "./_examples.ts";

interface PackData {
  summary?: Record<string, unknown>;
}
interface FundingHistoryData {
  venues?: { venue: string; cumulativePercent: string }[];
}
interface StablecoinData {
  total?: { change7dUsd: string };
}
interface PredictionsData {
  markets?: { question: string; volume24hUsd: number; url: string }[];
}
interface TvlData {
  ranking?: { name: string; sharePercent: string }[];
}

export default defineBundle({
  name: "trader-dashboard",
  price: "$0.05",
  // trader-pack runs its own parts with the standard deadline: a second more lets it answer with its failures in place.
  deadlineMs: 21_000,
  summary:
    "Full trading dashboard for a symbol: the trader pack plus market breadth, movers, prediction markets, stablecoin flows, 7-day funding, chain TVL and news",
  description:
    "Composes trader-pack (itself a bundle: price, funding, open interest, liquidations, options, fear & greed), market-global, top-movers, predictions, stablecoin-flows, funding-history (7 days by default), tvl and news. " +
    "The summary carries the trader pack's summary as is, the total market cap's 24 h change, the 7-day stablecoin supply change (dry powder entering or leaving), each venue's cumulative funding over those days, the busiest prediction market and the largest chain by TVL.",
  input: v.object({
    ...SymbolInput,
    fundingDays: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(90), v.description("Days of funding history")),
      7,
    ),
  }),
  parts: {
    pack: "trader-pack",
    global: "market-global",
    movers: "top-movers",
    predictions: "predictions",
    stablecoins: "stablecoin-flows",
    fundingHistory: "funding-history",
    tvl: "tvl",
    news: "news",
  },
  plan(input) {
    const { asset } = assetOf(input.symbol, input.coin);
    return {
      pack: { symbol: input.symbol, ...(input.coin ? { coin: input.coin } : {}) },
      global: {},
      movers: { window: "24h", limit: 5 },
      predictions: { limit: 5 },
      stablecoins: { limit: 5 },
      fundingHistory: { symbol: `${asset}USDT`, days: input.fundingDays },
      tvl: { limit: 5 },
      news: { limit: 10 },
    };
  },
  digest: v.object({
    pack: v.pipe(
      v.nullable(v.record(v.string(), v.unknown())),
      v.description("The summary of trader-pack, as that endpoint documents it"),
    ),
    marketCapChange24hPercent: figure("24 h change of the total crypto market cap, percent"),
    stablecoinSupplyChange7dUsd: decimalFigure("7-day change of the stablecoin supply, USD"),
    fundingCumulativePercent: v.pipe(
      v.array(v.object({ venue: v.string(), cumulativePercent: v.string() })),
      v.description("Funding paid by longs over fundingDays, per venue, percent of position"),
    ),
    topPrediction: v.pipe(
      v.nullable(v.object({ question: v.string(), volume24hUsd: v.number(), url: v.string() })),
      v.description("The prediction market with the most 24 h volume"),
    ),
    topChainByTvl: v.pipe(
      v.nullable(v.object({ name: v.string(), sharePercent: v.string() })),
      v.description("The chain holding the most DeFi TVL"),
    ),
  }),
  summarize(data) {
    const market = data.predictions as PredictionsData | undefined;
    const top = market?.markets?.[0];
    const chain = (data.tvl as TvlData | undefined)?.ranking?.[0];
    return {
      pack: (data.pack as PackData | undefined)?.summary ?? null,
      marketCapChange24hPercent:
        (data.global as { marketCapChange24hPercent?: number } | undefined)?.marketCapChange24hPercent ?? null,
      stablecoinSupplyChange7dUsd: (data.stablecoins as StablecoinData | undefined)?.total?.change7dUsd ?? null,
      fundingCumulativePercent: ((data.fundingHistory as FundingHistoryData | undefined)?.venues ?? []).map((x) => ({
        venue: x.venue,
        cumulativePercent: x.cumulativePercent,
      })),
      topPrediction: top ? { question: top.question, volume24hUsd: top.volume24hUsd, url: top.url } : null,
      topChainByTvl: chain ? { name: chain.name, sharePercent: chain.sharePercent } : null,
    };
  },
  example: examples["trader-dashboard"],
});
