import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { chart, StockSymbol, YAHOO } from "./_yahoo.ts";

export default defineEndpoint({
  name: "stock",
  method: "GET",
  price: "$0.01",
  summary: "Latest quote of a stock, ETF or index: price, change, day range, volume, exchange",
  description:
    "From Yahoo Finance's chart route (unofficial; delayed per exchange rules, not for redistribution). An unknown symbol is a 404.",
  input: v.object({
    symbol: v.optional(v.pipe(StockSymbol, v.description("Ticker, e.g. AAPL, BRK-B, ^GSPC")), "AAPL"),
  }),
  output: v.object({
    symbol: v.string(),
    name: v.nullable(v.string()),
    exchange: v.string(),
    currency: v.nullable(v.string()),
    type: v.string(),
    price: v.number(),
    previousClose: v.nullable(v.number()),
    change: v.nullable(v.string()),
    changePercent: v.nullable(v.string()),
    open: v.nullable(v.number()),
    dayHigh: v.nullable(v.number()),
    dayLow: v.nullable(v.number()),
    volume: v.nullable(v.number()),
    time: v.pipe(v.string(), v.description("ISO 8601 time of the price")),
    url: v.string(),
  }),
  example: {
    input: { symbol: "AAPL" },
    output: {
      symbol: "AAPL",
      name: "Apple Inc.",
      exchange: "NasdaqGS",
      currency: "USD",
      type: "EQUITY",
      price: 233.28,
      previousClose: 234.4,
      change: "-1.12",
      changePercent: "-0.4778",
      open: 234.75,
      dayHigh: 236.12,
      dayLow: 232.47,
      volume: 39435294,
      time: "2025-01-14T21:00:01.000Z",
      url: "https://finance.yahoo.com/quote/AAPL",
    },
  },
  cacheTtl: 60,
  upstreams: [YAHOO],
  async handler({ input, upstream }) {
    const { meta, indicators } = await chart(upstream(YAHOO), input.symbol.toUpperCase(), {
      range: "1d",
      interval: "1d",
    });
    const previous = meta.chartPreviousClose ?? meta.previousClose ?? null;
    const change = previous === null ? null : new Decimal(meta.regularMarketPrice).minus(previous);
    return {
      symbol: meta.symbol,
      name: meta.longName ?? meta.shortName ?? null,
      exchange: meta.fullExchangeName ?? meta.exchangeName,
      currency: meta.currency,
      type: meta.instrumentType,
      price: meta.regularMarketPrice,
      previousClose: previous,
      change: change === null ? null : fixed(change, 6),
      changePercent: change === null || !previous ? null : fixed(change.dividedBy(previous).times(100), 4),
      open: indicators.quote[0].open?.[0] ?? null,
      dayHigh: meta.regularMarketDayHigh ?? null,
      dayLow: meta.regularMarketDayLow ?? null,
      volume: meta.regularMarketVolume ?? null,
      time: new Date(meta.regularMarketTime * 1000).toISOString(),
      url: `https://finance.yahoo.com/quote/${encodeURIComponent(meta.symbol)}`,
    };
  },
});
