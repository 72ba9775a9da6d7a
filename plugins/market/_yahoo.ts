import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const YAHOO = "yahoo-finance";

export const StockSymbol = v.pipe(
  v.string(),
  v.maxLength(15),
  v.regex(/^[A-Za-z0-9.^=-]+$/, "a ticker such as AAPL, BRK-B, ^GSPC or EURUSD=X"),
);

const o = v.optional;
const n = o(v.number());
/** Unix seconds within what a Date can hold. */
const Unix = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8_640_000_000_000));
const Bars = v.array(v.nullable(v.number()));
/** What the code reads of one chart result: meta, and OHLCV bars (a quote block is always there, empty without bars). */
const ChartResult = v.object({
  meta: v.object({
    symbol: v.string(),
    currency: v.nullable(v.string()),
    exchangeName: v.string(),
    fullExchangeName: o(v.string()),
    instrumentType: v.string(),
    regularMarketPrice: v.number(),
    regularMarketTime: Unix,
    chartPreviousClose: n,
    previousClose: n,
    regularMarketDayHigh: n,
    regularMarketDayLow: n,
    regularMarketVolume: n,
    longName: o(v.string()),
    shortName: o(v.string()),
  }),
  timestamp: o(v.array(Unix)),
  indicators: v.object({
    quote: v.pipe(v.array(v.object({ open: Bars, high: Bars, low: Bars, close: Bars, volume: Bars })), v.minLength(1)),
  }),
});
export type ChartResult = v.InferOutput<typeof ChartResult>;
/** A result, or Yahoo's error saying why there is none. */
const Chart = v.object({
  chart: v.object({
    result: v.nullable(v.array(ChartResult)),
    error: v.nullable(v.object({ description: v.string() })),
  }),
});

/** GET /v8/finance/chart/{symbol}: meta (latest price, previous close) and OHLCV bars; an unknown symbol is a 404. */
export async function chart(
  api: Upstream,
  symbol: string,
  query: Record<string, string | number>,
): Promise<ChartResult> {
  const body = await api.json(`/v8/finance/chart/${encodeURIComponent(symbol)}`, Chart, { query, notFoundAs404: true });
  const result = body.chart.result?.[0];
  if (!result) throw upstreamFailed(YAHOO, `Yahoo chart: ${body.chart.error?.description ?? "no result"}`);
  return result;
}
