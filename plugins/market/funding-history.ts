import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { BINANCE, binanceFundingHistory } from "../_shared/binance.ts";
import type { FundingPrint } from "../_shared/funding.ts";
import { BYBIT, bybitFundingHistory } from "./_bybit.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { HYPERLIQUID, hyperliquidFundingHistory } from "../_shared/hyperliquid.ts";
import { OKX, okxFundingHistory } from "./_okx.ts";
import { baseAsset, iso, PerpSymbol, perpOn } from "../_shared/symbols.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

const exchanges = { binance: BINANCE, bybit: BYBIT, okx: OKX, hyperliquid: HYPERLIQUID } as const;
type Exchange = keyof typeof exchanges;

const VenueHistory = v.object({
  venue: v.string(),
  symbol: v.string(),
  prints: v.array(v.object({ time: v.pipe(v.string(), v.description("ISO 8601 settlement time")), rate: v.string() })),
  count: v.number(),
  meanRate: v.nullable(v.string()),
  cumulativePercent: v.pipe(v.string(), v.description("Sum of the rates over the window, x 100")),
  annualizedPercent: v.pipe(v.string(), v.description("Cumulative funding scaled to 365 days (interval-independent)")),
  positiveShare: v.nullable(v.pipe(v.string(), v.description("Fraction of prints above zero"))),
});

function summarize(
  venue: string,
  symbol: string,
  prints: FundingPrint[],
  days: number,
): v.InferOutput<typeof VenueHistory> {
  const sum = prints.reduce((acc, p) => acc.plus(p.rate), new Decimal(0));
  const n = prints.length;
  return {
    venue,
    symbol,
    count: n,
    prints: prints.map((p) => ({ time: iso(p.time), rate: p.rate })),
    meanRate: n ? fixed(sum.dividedBy(n), 12) : null,
    cumulativePercent: fixed(sum.times(100), 6),
    annualizedPercent: fixed(sum.times(100).times(365).dividedBy(days), 4),
    positiveShare: n
      ? fixed(new Decimal(prints.filter((p) => new Decimal(p.rate).gt(0)).length).dividedBy(n), 4)
      : null,
  };
}

export default defineEndpoint({
  name: "funding-history",
  method: "GET",
  price: "$0.03",
  summary:
    "Settled funding prints of a perpetual over up to 90 days, per venue, with mean, annualized and share positive",
  description:
    "Binance, Bybit and OKX settle every 8 h on most symbols, Hyperliquid hourly; the annualized figure sums the window's prints and scales to a year, so intervals do not matter. " +
    "OKX keeps about three months. With exchange=all the venues are read at once and sources.missing names any that failed.",
  input: v.object({
    days: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(90), v.description("Lookback in days, 1-90")),
      30,
    ),
    exchange: v.optional(
      v.pipe(v.picklist(["all", "binance", "bybit", "okx", "hyperliquid"]), v.description("One venue, or all")),
      "all",
    ),
    symbol: v.optional(
      v.pipe(PerpSymbol, v.description("Perpetual or base asset: BTCUSDT, ETH, SOL-USDT-SWAP")),
      "BTCUSDT",
    ),
  }),
  output: v.object({
    asset: v.string(),
    days: v.number(),
    from: v.string(),
    to: v.string(),
    venues: v.array(VenueHistory),
    sources: SourcesReport,
  }),
  example: {
    input: { days: 1, exchange: "okx", symbol: "BTCUSDT" },
    output: {
      asset: "BTC",
      days: 1,
      from: "2025-01-14T12:00:00.000Z",
      to: "2025-01-15T12:00:00.000Z",
      venues: [
        {
          venue: "okx",
          symbol: "BTC-USDT-SWAP",
          count: 3,
          prints: [
            { time: "2025-01-14T16:00:00.000Z", rate: "0.0001" },
            { time: "2025-01-15T00:00:00.000Z", rate: "0.00008" },
            { time: "2025-01-15T08:00:00.000Z", rate: "-0.00002" },
          ],
          meanRate: "0.000053333333",
          cumulativePercent: "0.016",
          annualizedPercent: "5.84",
          positiveShare: "0.6667",
        },
      ],
      sources: { answered: ["okx"], missing: [] },
    },
  },
  cacheTtl: 900,
  upstreams: Object.values(exchanges),
  async handler({ input, upstream, signal, now }) {
    const asset = baseAsset(input.symbol);
    const to = now().getTime();
    const from = to - input.days * 86_400_000;
    const all: Record<Exchange, () => Promise<v.InferOutput<typeof VenueHistory>>> = {
      binance: async () =>
        summarize(
          BINANCE,
          perpOn.binance(asset),
          await binanceFundingHistory(upstream(BINANCE), perpOn.binance(asset), from, to),
          input.days,
        ),
      bybit: async () =>
        summarize(
          BYBIT,
          perpOn.bybit(asset),
          await bybitFundingHistory(upstream(BYBIT), perpOn.bybit(asset), from, to),
          input.days,
        ),
      okx: async () =>
        summarize(OKX, perpOn.okx(asset), await okxFundingHistory(upstream(OKX), perpOn.okx(asset), from), input.days),
      hyperliquid: async () =>
        summarize(
          HYPERLIQUID,
          asset,
          await hyperliquidFundingHistory(upstream(HYPERLIQUID), asset, from, to),
          input.days,
        ),
    };
    const chosen = input.exchange === "all" ? (Object.keys(all) as Exchange[]) : [input.exchange];
    const readers = Object.fromEntries(chosen.map((name) => [exchanges[name], all[name]]));
    const { values, sources } = await gatherVenues(readers, signal);
    return { asset, days: input.days, from: iso(from), to: iso(to), venues: values.map((x) => x.value), sources };
  },
});
