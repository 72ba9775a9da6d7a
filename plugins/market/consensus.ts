import * as v from "valibot";
import { defineEndpoint, type Upstream } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { BINANCE, binancePremiumIndex } from "../_shared/binance.ts";
import { BYBIT, bybitTickers } from "./_bybit.ts";
import { COINGECKO, simplePrices } from "./_coingecko.ts";
import { Decimal, fixed, median } from "./_decimal.ts";
import { HYPERLIQUID, hyperliquidAssets } from "../_shared/hyperliquid.ts";
import { currentPrices, LLAMA_COINS } from "./_llama-coins.ts";
import { PAIR_TOKENS } from "../_shared/symbols.ts";
import { TokenSymbol } from "./_pair-prices.ts";
import { iso, perpOn } from "../_shared/symbols.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

/** A source further than this from the median is flagged. */
const OUTLIER_BPS = 100;

interface Quote {
  price: string;
  kind: "spot-aggregate" | "perp-mark";
  time: string | null;
}

function readers(
  upstream: (
    name: typeof BINANCE | typeof BYBIT | typeof COINGECKO | typeof HYPERLIQUID | typeof LLAMA_COINS,
  ) => Upstream,
  asset: string,
): Record<string, () => Promise<Quote>> {
  const id = PAIR_TOKENS[asset];
  return {
    [COINGECKO]: async () => {
      const p = (await simplePrices(upstream(COINGECKO), [id], "usd"))[id];
      if (typeof p?.usd !== "number") throw notFound(`CoinGecko has no price for ${id}`);
      return {
        price: String(p.usd),
        kind: "spot-aggregate",
        time: p.last_updated_at ? iso(p.last_updated_at * 1000) : null,
      };
    },
    [LLAMA_COINS]: async () => {
      const p = (await currentPrices(upstream(LLAMA_COINS), [`coingecko:${id}`]))[`coingecko:${id}`];
      if (!p) throw notFound(`DefiLlama has no price for ${id}`);
      return { price: String(p.price), kind: "spot-aggregate", time: iso(p.timestamp * 1000) };
    },
    [BINANCE]: async () => {
      const [x] = await binancePremiumIndex(upstream(BINANCE), perpOn.binance(asset));
      return { price: x.markPrice, kind: "perp-mark", time: iso(x.time) };
    },
    [BYBIT]: async () => {
      const [x] = await bybitTickers(upstream(BYBIT), perpOn.bybit(asset));
      if (!x) throw notFound(`Bybit lists no ${perpOn.bybit(asset)}`);
      return { price: x.markPrice, kind: "perp-mark", time: null };
    },
    [HYPERLIQUID]: async () => {
      const x = (await hyperliquidAssets(upstream(HYPERLIQUID))).find((a) => a.name === perpOn.hyperliquid(asset));
      if (!x) throw notFound(`Hyperliquid lists no ${asset} perpetual`);
      return { price: x.markPx, kind: "perp-mark", time: null };
    },
  };
}

export default defineEndpoint({
  name: "consensus",
  method: "GET",
  price: "$0.02",
  summary:
    "Consensus USD price of a crypto asset across CoinGecko, DefiLlama, Binance, Bybit and Hyperliquid: median, mean, dispersion, outliers",
  description:
    "Every source is read at once. Aggregators (CoinGecko, DefiLlama) give a spot USD price; the perpetual venues give their USDT-margined mark price. " +
    `Deviations are in basis points from the median; a source more than ${OUTLIER_BPS} bps away is flagged as an outlier. Decimal arithmetic throughout.`,
  input: v.object({
    asset: v.optional(v.pipe(TokenSymbol, v.description("Asset symbol: BTC, ETH, SOL, LINK...")), "BTC"),
  }),
  output: v.object({
    asset: v.string(),
    medianUsd: v.string(),
    meanUsd: v.string(),
    dispersionBps: v.pipe(v.string(), v.description("Highest minus lowest price, in basis points of the median")),
    quotes: v.array(
      v.object({
        source: v.string(),
        kind: v.picklist(["spot-aggregate", "perp-mark"]),
        price: v.string(),
        deviationBps: v.string(),
        outlier: v.boolean(),
        time: v.nullable(v.pipe(v.string(), v.description("ISO 8601 time of the source's price, when it gives one"))),
      }),
    ),
    sources: SourcesReport,
  }),
  example: {
    input: { asset: "BTC" },
    output: {
      asset: "BTC",
      medianUsd: "99418.12",
      meanUsd: "99415.304",
      dispersionBps: "2.3436",
      quotes: [
        {
          source: "coingecko",
          kind: "spot-aggregate",
          price: "99421",
          deviationBps: "0.2897",
          outlier: false,
          time: "2025-01-15T11:59:40.000Z",
        },
        {
          source: "defillama-coins",
          kind: "spot-aggregate",
          price: "99418.12",
          deviationBps: "0",
          outlier: false,
          time: "2025-01-15T11:59:55.000Z",
        },
        {
          source: "binance-futures",
          kind: "perp-mark",
          price: "99421.30000000",
          deviationBps: "0.3199",
          outlier: false,
          time: "2025-01-15T12:00:00.000Z",
        },
        { source: "bybit", kind: "perp-mark", price: "99418.10", deviationBps: "-0.002", outlier: false, time: null },
        {
          source: "hyperliquid",
          kind: "perp-mark",
          price: "99398.0",
          deviationBps: "-2.0238",
          outlier: false,
          time: null,
        },
      ],
      sources: { answered: ["coingecko", "defillama-coins", "binance-futures", "bybit", "hyperliquid"], missing: [] },
    },
  },
  cacheTtl: 15,
  upstreams: [COINGECKO, LLAMA_COINS, BINANCE, BYBIT, HYPERLIQUID],
  async handler({ input, upstream, signal }) {
    const asset = input.asset.toUpperCase();
    const { values, sources } = await gatherVenues(readers(upstream, asset), signal);
    const prices = values.map((x) => new Decimal(x.value.price));
    const mid = median(prices);
    const sum = prices.reduce((a, b) => a.plus(b), new Decimal(0));
    const max = Decimal.max(...prices);
    const min = Decimal.min(...prices);
    return {
      asset,
      medianUsd: fixed(mid, 10),
      meanUsd: fixed(sum.dividedBy(prices.length), 10),
      dispersionBps: fixed(max.minus(min).dividedBy(mid).times(10_000), 4),
      quotes: values.map(({ venue, value }, i) => {
        const deviation = prices[i].minus(mid).dividedBy(mid).times(10_000);
        return {
          source: venue,
          kind: value.kind,
          price: value.price,
          deviationBps: fixed(deviation, 4),
          outlier: deviation.abs().gt(OUTLIER_BPS),
          time: value.time,
        };
      }),
      sources,
    };
  },
});
