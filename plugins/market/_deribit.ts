import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";

export const DERIBIT = "deribit";

/** What the code reads of Deribit's answers: JSON-RPC style, `result` (checked against the caller's shape) or `error`. */
const Answer = v.object({ result: v.optional(v.unknown()), error: v.optional(v.object({ message: v.string() })) });
const OptionSummary = v.object({
  instrument_name: v.string(),
  mark_iv: v.nullable(v.number()),
  open_interest: v.number(),
  volume_usd: v.nullable(v.number()),
  underlying_price: v.number(),
  mark_price: v.nullable(v.number()),
});
export type OptionSummary = v.InferOutput<typeof OptionSummary>;
/** DVOL candles: [timestamp, open, high, low, close]. */
const Dvol = v.object({ data: v.array(v.tuple([v.number(), v.number(), v.number(), v.number(), v.number()])) });

async function result<S extends v.GenericSchema>(
  api: Upstream,
  path: string,
  shape: S,
  query: Record<string, string | number>,
): Promise<v.InferOutput<S>> {
  const body = await api.json(path, Answer, { query });
  if (body.result === undefined) throw upstreamFailed(DERIBIT, `Deribit: ${body.error?.message ?? "no result"}`);
  return checkUpstream(DERIBIT, shape, body.result);
}

/** GET /public/get_book_summary_by_currency?kind=option: every listed option with mark IV, open interest and volume. */
export async function optionBook(api: Upstream, currency: string): Promise<OptionSummary[]> {
  return result(api, "/public/get_book_summary_by_currency", v.array(OptionSummary), { currency, kind: "option" });
}

/** GET /public/get_index_price: the currency's USD index. */
export async function indexPrice(api: Upstream, currency: string): Promise<number> {
  return (
    await result(api, "/public/get_index_price", v.object({ index_price: v.number() }), {
      index_name: `${currency.toLowerCase()}_usd`,
    })
  ).index_price;
}

/** GET /public/get_volatility_index_data: DVOL candles [ts, open, high, low, close]; the latest close, or null. */
export async function latestDvol(api: Upstream, currency: string, nowMs: number): Promise<number | null> {
  const { data } = await result(api, "/public/get_volatility_index_data", Dvol, {
    currency,
    start_timestamp: nowMs - 3 * 3_600_000,
    end_timestamp: nowMs,
    resolution: 3600,
  });
  return data.length ? data[data.length - 1][4] : null;
}

const months: Record<string, string> = {
  JAN: "01",
  FEB: "02",
  MAR: "03",
  APR: "04",
  MAY: "05",
  JUN: "06",
  JUL: "07",
  AUG: "08",
  SEP: "09",
  OCT: "10",
  NOV: "11",
  DEC: "12",
};

/** BTC-28MAR25-90000-C -> expiry 2025-03-28T08:00:00Z (Deribit expires at 08:00 UTC), strike, call or put. */
export function parseOption(name: string): { expiry: string; strike: number; kind: "call" | "put" } | undefined {
  const m = /^[A-Z]+-(\d{1,2})([A-Z]{3})(\d{2})-([\dd.]+)-([CP])$/.exec(name);
  if (!m || !months[m[2]]) return undefined;
  return {
    expiry: `20${m[3]}-${months[m[2]]}-${m[1].padStart(2, "0")}T08:00:00.000Z`,
    strike: Number(m[4].replace("d", ".")),
    kind: m[5] === "C" ? "call" : "put",
  };
}
