import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

export interface OpenFdaAnswer<T> {
  meta?: { last_updated?: string; results?: { skip: number; limit: number; total: number } };
  results: T[];
}

/** openFDA answers a search that matches nothing with a 404 NOT_FOUND: here that is an empty result. */
export async function openFda<T>(api: Upstream, path: string, query: Record<string, string | number>): Promise<OpenFdaAnswer<T>> {
  try {
    return await api.json<OpenFdaAnswer<T>>(path, { query, notFoundAs404: true });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return { results: [] };
    throw error;
  }
}

/** openFDA dates are YYYYMMDD. */
export const fdaDay = (date?: string) => (date && /^\d{8}$/.test(date) ? `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}` : null);
export const toFdaDay = (iso: string) => iso.replaceAll("-", "");

/** A phrase for the search parameter: quotes and backslashes dropped, wrapped in quotes. */
export const phrase = (text: string) => `"${text.replace(/["\\]/g, "").trim()}"`;
