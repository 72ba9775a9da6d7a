import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";

export const FRANKFURTER = "frankfurter";
export const ER_API = "exchangerate-api";

export const CurrencyCode = v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, "a three-letter ISO 4217 code such as USD"));
export const IsoDate = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD"));

export interface FrankfurterRates {
  base: string;
  date: string;
  rates: Record<string, number>;
}

/** GET /v1/latest or /v1/{date}: ECB reference rates of one day (the last business day on or before it). */
export async function frankfurterDay(api: Upstream, base: string, symbols: string[] | undefined, date = "latest"): Promise<FrankfurterRates> {
  const body = await api.json<FrankfurterRates>(`/v1/${date}`, { query: { base, symbols: symbols?.join(",") }, notFoundAs404: true });
  if (typeof body?.rates !== "object") throw upstreamFailed(FRANKFURTER, "Frankfurter changed shape");
  return body;
}

/** GET /v1/{start}..{end}: a daily series (business days only). */
export async function frankfurterSeries(api: Upstream, base: string, symbols: string[] | undefined, start: string, end: string): Promise<{ base: string; rates: Record<string, Record<string, number>> }> {
  const body = await api.json<{ base: string; rates: Record<string, Record<string, number>> }>(`/v1/${start}..${end}`, { query: { base, symbols: symbols?.join(",") }, notFoundAs404: true });
  if (typeof body?.rates !== "object") throw upstreamFailed(FRANKFURTER, "Frankfurter changed shape");
  return body;
}

/** GET /v6/latest/{base} (open access): every rate against the base, updated daily. */
export async function erApiLatest(api: Upstream, base: string): Promise<FrankfurterRates> {
  const body = await api.json<{ result: string; base_code: string; time_last_update_unix: number; rates: Record<string, number>; "error-type"?: string }>(`/latest/${base}`);
  if (body?.result === "error" && body["error-type"] === "unsupported-code") throw notFound(`ExchangeRate-API does not quote ${base}`);
  if (body?.result !== "success" || typeof body.rates !== "object") throw upstreamFailed(ER_API, "ExchangeRate-API changed shape");
  return { base: body.base_code, date: new Date(body.time_last_update_unix * 1000).toISOString().slice(0, 10), rates: body.rates };
}
