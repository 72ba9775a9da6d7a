import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";

export const TWELVE_DATA = "twelve-data";

export const StockSymbol = v.pipe(
  v.string(),
  v.maxLength(20),
  v.regex(/^[A-Za-z0-9.:/-]+$/, "a ticker such as AAPL, BRK.B or VOD:LSE"),
);

/** Twelve Data sends every number as a string. */
const Num = v.pipe(v.string(), v.decimal());
/** Twelve Data answers a problem with `status: "error"`, often under HTTP 200 (https://twelvedata.com/docs#errors). */
const Failure = v.object({ status: v.literal("error"), code: v.number(), message: v.string() });

/** GET /quote: the latest quote (https://twelvedata.com/docs#quote). */
const Quote = v.object({
  symbol: v.string(),
  name: v.string(),
  exchange: v.string(),
  currency: v.string(),
  timestamp: v.number(),
  last_quote_at: v.optional(v.number()),
  open: Num,
  high: Num,
  low: Num,
  close: Num,
  volume: v.optional(Num),
  previous_close: v.optional(Num),
  is_market_open: v.boolean(),
});
export type Quote = v.InferOutput<typeof Quote>;

/** GET /time_series: bars oldest first with `order=asc` (https://twelvedata.com/docs#time-series). */
const Series = v.object({
  status: v.literal("ok"),
  meta: v.object({ symbol: v.string(), currency: v.optional(v.string()), exchange: v.optional(v.string()) }),
  values: v.array(
    v.object({ datetime: v.string(), open: Num, high: Num, low: Num, close: Num, volume: v.optional(Num) }),
  ),
});
export type Series = v.InferOutput<typeof Series>;

async function read<S extends v.GenericSchema>(api: Upstream, path: string, shape: S, query: Record<string, string>) {
  const body = await api.json(path, v.union([shape, Failure]), { query, notFoundAs404: true });
  if ((body as { status?: string }).status !== "error") return body as v.InferOutput<S>;
  const failure = body as v.InferOutput<typeof Failure>;
  if (failure.code === 404)
    throw notFound(`Twelve Data has no such symbol: ${failure.message}`, { upstream: TWELVE_DATA });
  throw upstreamFailed(TWELVE_DATA, `Twelve Data answered ${failure.code}: ${failure.message}`);
}

export const quote = (api: Upstream, symbol: string) => read(api, "/quote", Quote, { symbol });

export const dailySeries = (api: Upstream, symbol: string, startDate: string, endDate: string) =>
  read(api, "/time_series", Series, {
    symbol,
    interval: "1day",
    start_date: startDate,
    end_date: endDate,
    order: "asc",
    outputsize: "5000",
  });
