import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const DERIBIT = "deribit";

export interface OptionSummary {
  instrument_name: string;
  mark_iv: number | null;
  open_interest: number;
  volume_usd: number | null;
  underlying_price: number;
  mark_price: number | null;
}

async function result<T>(api: Upstream, path: string, query: Record<string, string | number>): Promise<T> {
  const body = await api.json<{ result?: T; error?: { message: string } }>(path, { query });
  if (body?.result === undefined) throw upstreamFailed(DERIBIT, `Deribit: ${body?.error?.message ?? "no result"}`);
  return body.result;
}

/** GET /public/get_book_summary_by_currency?kind=option: every listed option with mark IV, open interest and volume. */
export async function optionBook(api: Upstream, currency: string): Promise<OptionSummary[]> {
  const list = await result<OptionSummary[]>(api, "/public/get_book_summary_by_currency", { currency, kind: "option" });
  if (!Array.isArray(list)) throw upstreamFailed(DERIBIT, "Deribit book summary changed shape");
  return list;
}

/** GET /public/get_index_price: the currency's USD index. */
export async function indexPrice(api: Upstream, currency: string): Promise<number> {
  return (await result<{ index_price: number }>(api, "/public/get_index_price", { index_name: `${currency.toLowerCase()}_usd` })).index_price;
}

/** GET /public/get_volatility_index_data: DVOL candles [ts, open, high, low, close]; the latest close, or null. */
export async function latestDvol(api: Upstream, currency: string, nowMs: number): Promise<number | null> {
  const { data } = await result<{ data: number[][] }>(api, "/public/get_volatility_index_data", {
    currency, start_timestamp: nowMs - 3 * 3_600_000, end_timestamp: nowMs, resolution: 3600,
  });
  return Array.isArray(data) && data.length ? data[data.length - 1][4] : null;
}

const months: Record<string, string> = { JAN: "01", FEB: "02", MAR: "03", APR: "04", MAY: "05", JUN: "06", JUL: "07", AUG: "08", SEP: "09", OCT: "10", NOV: "11", DEC: "12" };

/** BTC-28MAR25-90000-C -> expiry 2025-03-28T08:00:00Z (Deribit expires at 08:00 UTC), strike, call or put. */
export function parseOption(name: string): { expiry: string; strike: number; kind: "call" | "put" } | undefined {
  const m = /^[A-Z]+-(\d{1,2})([A-Z]{3})(\d{2})-([\dd.]+)-([CP])$/.exec(name);
  if (!m || !months[m[2]]) return undefined;
  return { expiry: `20${m[3]}-${months[m[2]]}-${m[1].padStart(2, "0")}T08:00:00.000Z`, strike: Number(m[4].replace("d", ".")), kind: m[5] === "C" ? "call" : "put" };
}
