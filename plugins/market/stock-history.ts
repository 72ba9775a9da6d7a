import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { dailySeries, StockSymbol, TWELVE_DATA } from "./_twelve-data.ts";

const Bar = v.object({
  date: v.string(),
  open: v.number(),
  high: v.number(),
  low: v.number(),
  close: v.number(),
  volume: v.nullable(v.number()),
});
type Bar = v.InferOutput<typeof Bar>;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sma = (bars: Bar[], n: number) => (bars.length >= n ? fixed(mean(bars.slice(-n).map((b) => b.close)), 4) : null);

function summary(bars: Bar[]) {
  if (bars.length < 2)
    return {
      returnPercent: null,
      volatilityAnnualizedPercent: null,
      maxDrawdownPercent: null,
      sma20: sma(bars, 20),
      sma50: sma(bars, 50),
    };
  const first = bars[0].close;
  const last = bars[bars.length - 1].close;
  const logReturns = bars.slice(1).map((b, i) => Math.log(b.close / bars[i].close));
  const m = mean(logReturns);
  const variance =
    logReturns.length > 1 ? logReturns.reduce((s, r) => s + (r - m) ** 2, 0) / (logReturns.length - 1) : null;
  let peak = -Infinity;
  let drawdown = 0;
  for (const b of bars) {
    peak = Math.max(peak, b.close);
    drawdown = Math.min(drawdown, b.close / peak - 1);
  }
  return {
    returnPercent: fixed(new Decimal(last).dividedBy(first).minus(1).times(100), 4),
    volatilityAnnualizedPercent: variance === null ? null : fixed(Math.sqrt(variance * 252) * 100, 4),
    maxDrawdownPercent: fixed(drawdown * 100, 4),
    sma20: sma(bars, 20),
    sma50: sma(bars, 50),
  };
}

export default defineEndpoint({
  name: "stock-history",
  method: "GET",
  price: "$0.01",
  summary:
    "Daily OHLCV bars of a stock over up to five years, with return, volatility, max drawdown and moving averages",
  description:
    "From Twelve Data's daily time series under the operator's key (its plan sets whether redistribution is licensed). An unknown symbol is a 404. Volatility is the annualized standard deviation of daily log returns (252 trading days).",
  input: v.object({
    symbol: v.pipe(StockSymbol, v.description("Ticker, e.g. AAPL")),
    days: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1825), v.description("Calendar days back, 1-1825")),
      90,
    ),
  }),
  output: v.object({
    symbol: v.string(),
    currency: v.nullable(v.string()),
    exchange: v.nullable(v.string()),
    days: v.number(),
    bars: v.array(Bar),
    summary: v.object({
      returnPercent: v.nullable(v.string()),
      volatilityAnnualizedPercent: v.nullable(v.string()),
      maxDrawdownPercent: v.nullable(v.string()),
      sma20: v.nullable(v.string()),
      sma50: v.nullable(v.string()),
    }),
  }),
  example: {
    input: { symbol: "AAPL", days: 3 },
    output: {
      symbol: "AAPL",
      currency: "USD",
      exchange: "NASDAQ",
      days: 3,
      bars: [
        { date: "2025-01-13", open: 233.53, high: 234.67, low: 229.72, close: 234.4, volume: 49630700 },
        { date: "2025-01-14", open: 234.75, high: 236.12, low: 232.47, close: 233.28, volume: 39435300 },
      ],
      summary: {
        returnPercent: "-0.4778",
        volatilityAnnualizedPercent: null,
        maxDrawdownPercent: "-0.4778",
        sma20: null,
        sma50: null,
      },
    },
  },
  cacheTtl: 3600,
  upstreams: [TWELVE_DATA],
  async handler({ input, upstream, now }) {
    const end = now();
    const start = new Date(end.getTime() - input.days * 86_400_000);
    const { meta, values } = await dailySeries(
      upstream(TWELVE_DATA),
      input.symbol.toUpperCase(),
      start.toISOString().slice(0, 10),
      end.toISOString().slice(0, 10),
    );
    const bars: Bar[] = values.map((b) => ({
      date: b.datetime.slice(0, 10),
      open: Number(b.open),
      high: Number(b.high),
      low: Number(b.low),
      close: Number(b.close),
      volume: b.volume === undefined ? null : Number(b.volume),
    }));
    return {
      symbol: meta.symbol,
      currency: meta.currency ?? null,
      exchange: meta.exchange ?? null,
      days: input.days,
      bars,
      summary: summary(bars),
    };
  },
});
