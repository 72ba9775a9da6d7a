import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const YAHOO = "yahoo-finance";

export const StockSymbol = v.pipe(v.string(), v.maxLength(15), v.regex(/^[A-Za-z0-9.^=-]+$/, "a ticker such as AAPL, BRK-B, ^GSPC or EURUSD=X"));

export interface ChartResult {
  meta: {
    symbol: string;
    currency: string | null;
    exchangeName: string;
    fullExchangeName?: string;
    instrumentType: string;
    regularMarketPrice: number;
    regularMarketTime: number;
    chartPreviousClose?: number;
    previousClose?: number;
    regularMarketDayHigh?: number;
    regularMarketDayLow?: number;
    regularMarketVolume?: number;
    longName?: string;
    shortName?: string;
  };
  timestamp?: number[];
  indicators: { quote: { open: (number | null)[]; high: (number | null)[]; low: (number | null)[]; close: (number | null)[]; volume: (number | null)[] }[] };
}

/** GET /v8/finance/chart/{symbol}: meta (latest price, previous close) and OHLCV bars; an unknown symbol is a 404. */
export async function chart(api: Upstream, symbol: string, query: Record<string, string | number>): Promise<ChartResult> {
  const body = await api.json<{ chart: { result: ChartResult[] | null; error: { description: string } | null } }>(`/v8/finance/chart/${encodeURIComponent(symbol)}`, { query, notFoundAs404: true });
  const result = body?.chart?.result?.[0];
  if (!result?.meta || !result.indicators?.quote?.[0]) throw upstreamFailed(YAHOO, `Yahoo chart: ${body?.chart?.error?.description ?? "changed shape"}`);
  return result;
}
