import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";

export const FRANKFURTER = "frankfurter";
export const ER_API = "exchangerate-api";

export const CurrencyCode = v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, "a three-letter ISO 4217 code such as USD"));
export const IsoDate = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD"));

/** What the code reads of Frankfurter's answers: one day's rates, or a series of days. */
const Rates = v.record(v.string(), v.number());
const FrankfurterRates = v.object({ base: v.string(), date: v.string(), rates: Rates });
export type FrankfurterRates = v.InferOutput<typeof FrankfurterRates>;
const FrankfurterSeries = v.object({ base: v.string(), rates: v.record(v.string(), Rates) });
/** ExchangeRate-API: `result` says which of the two shapes came. */
const ErApiLatest = v.variant("result", [
  v.object({
    result: v.literal("success"),
    base_code: v.string(),
    time_last_update_unix: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8_640_000_000_000)),
    rates: Rates,
  }),
  v.object({ result: v.literal("error"), "error-type": v.string() }),
]);

/** GET /v1/latest or /v1/{date}: ECB reference rates of one day (the last business day on or before it). */
export async function frankfurterDay(
  api: Upstream,
  base: string,
  symbols: string[] | undefined,
  date = "latest",
): Promise<FrankfurterRates> {
  return api.json(`/v1/${date}`, FrankfurterRates, {
    query: { base, symbols: symbols?.join(",") },
    notFoundAs404: true,
  });
}

/** GET /v1/{start}..{end}: a daily series (business days only). */
export async function frankfurterSeries(
  api: Upstream,
  base: string,
  symbols: string[] | undefined,
  start: string,
  end: string,
): Promise<{ base: string; rates: Record<string, Record<string, number>> }> {
  return api.json(`/v1/${start}..${end}`, FrankfurterSeries, {
    query: { base, symbols: symbols?.join(",") },
    notFoundAs404: true,
  });
}

/** GET /v6/latest/{base} (open access): every rate against the base, updated daily. */
export async function erApiLatest(api: Upstream, base: string): Promise<FrankfurterRates> {
  const body = await api.json(`/latest/${base}`, ErApiLatest);
  if (body.result === "error") {
    if (body["error-type"] === "unsupported-code") throw notFound(`ExchangeRate-API does not quote ${base}`);
    throw upstreamFailed(ER_API, `ExchangeRate-API answered ${body["error-type"]}`);
  }
  return {
    base: body.base_code,
    date: new Date(body.time_last_update_unix * 1000).toISOString().slice(0, 10),
    rates: body.rates,
  };
}
