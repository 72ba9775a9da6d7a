import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { quote, StockSymbol, TWELVE_DATA } from "./_twelve-data.ts";

export default defineEndpoint({
  name: "stock",
  method: "GET",
  price: "$0.01",
  summary: "Latest quote of a stock or ETF: price, change, day range, volume, exchange, whether the market is open",
  description:
    "From Twelve Data's quote API under the operator's key (its plan sets the delay and whether redistribution is licensed). An unknown symbol is a 404.",
  input: v.object({
    symbol: v.optional(v.pipe(StockSymbol, v.description("Ticker, e.g. AAPL, BRK.B, VOD:LSE")), "AAPL"),
  }),
  output: v.object({
    symbol: v.string(),
    name: v.string(),
    exchange: v.string(),
    currency: v.string(),
    price: v.pipe(v.number(), v.description("Last price (the current bar's close)")),
    previousClose: v.nullable(v.number()),
    change: v.nullable(v.string()),
    changePercent: v.nullable(v.string()),
    open: v.number(),
    dayHigh: v.number(),
    dayLow: v.number(),
    volume: v.nullable(v.number()),
    marketOpen: v.boolean(),
    time: v.pipe(v.string(), v.description("ISO 8601 time of the last quote")),
  }),
  example: {
    input: { symbol: "AAPL" },
    output: {
      symbol: "AAPL",
      name: "Apple Inc.",
      exchange: "NASDAQ",
      currency: "USD",
      price: 233.28,
      previousClose: 234.4,
      change: "-1.12",
      changePercent: "-0.4778",
      open: 234.75,
      dayHigh: 236.12,
      dayLow: 232.47,
      volume: 39435294,
      marketOpen: false,
      time: "2025-01-14T21:00:00.000Z",
    },
  },
  cacheTtl: 60,
  upstreams: [TWELVE_DATA],
  async handler({ input, upstream }) {
    const q = await quote(upstream(TWELVE_DATA), input.symbol.toUpperCase());
    const previous = q.previous_close === undefined ? null : Number(q.previous_close);
    const change = previous === null ? null : new Decimal(q.close).minus(q.previous_close!);
    return {
      symbol: q.symbol,
      name: q.name,
      exchange: q.exchange,
      currency: q.currency,
      price: Number(q.close),
      previousClose: previous,
      change: change === null ? null : fixed(change, 6),
      changePercent: change === null || !previous ? null : fixed(change.dividedBy(q.previous_close!).times(100), 4),
      open: Number(q.open),
      dayHigh: Number(q.high),
      dayLow: Number(q.low),
      volume: q.volume === undefined ? null : Number(q.volume),
      marketOpen: q.is_market_open,
      time: new Date((q.last_quote_at ?? q.timestamp) * 1000).toISOString(),
    };
  },
});
