import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

interface GoPlusAnswer<T> {
  code: number;
  message: string;
  result: T;
}

/** GoPlus answers HTTP 200 with its own `code`: 1 is success, 2 partial data; anything else (rate limit, bad chain) fails. */
export async function goplus<T>(api: Upstream, path: string, query: Record<string, string>): Promise<T> {
  const answer = await api.json<GoPlusAnswer<T>>(path, { query });
  if (answer.code !== 1 && answer.code !== 2) throw upstreamFailed("goplus", `GoPlus answered code ${answer.code}: ${answer.message}`);
  return answer.result;
}

/** GoPlus flags are "0"/"1" strings, absent when unknown. */
export const flag = (value: unknown): boolean | null => (value === "1" || value === 1 ? true : value === "0" || value === 0 ? false : null);

/** Taxes and percentages come as decimal strings ("0.05" = 5%); absent or empty means unknown. */
export const fraction = (value: unknown): number | null => (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : null);
