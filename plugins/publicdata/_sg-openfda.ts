import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

/** What the code reads of openFDA's envelope: `meta` always comes (`results` in it only for a search, not a count). */
const Meta = v.object({ last_updated: v.optional(v.string()), results: v.optional(v.object({ total: v.number() })) });
export interface OpenFdaAnswer<T> {
  meta?: v.InferOutput<typeof Meta>;
  results: T[];
}

/** openFDA answers a search that matches nothing with a 404 NOT_FOUND: here that is an empty result. */
export async function openFda<S extends v.GenericSchema>(
  api: Upstream,
  path: string,
  item: S,
  query: Record<string, string | number>,
): Promise<OpenFdaAnswer<v.InferOutput<S>>> {
  try {
    return await api.json(path, v.object({ meta: Meta, results: v.array(item) }), { query, notFoundAs404: true });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return { results: [] };
    throw error;
  }
}

/** openFDA dates are YYYYMMDD. */
export const fdaDay = (date?: string) =>
  date && /^\d{8}$/.test(date) ? `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}` : null;
export const toFdaDay = (iso: string) => iso.replaceAll("-", "");

/** A phrase for the search parameter: quotes and backslashes dropped, wrapped in quotes. */
export const phrase = (text: string) => `"${text.replace(/["\\]/g, "").trim()}"`;
