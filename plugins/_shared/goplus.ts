import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";

/** GoPlus's envelope; `result` is checked against the caller's shape once `code` says there is one. */
const Envelope = v.object({ code: v.number(), message: v.string(), result: v.unknown() });

/** GoPlus answers HTTP 200 with its own `code`: 1 is success, 2 partial data; anything else (rate limit, bad chain) fails. */
export async function goplus<S extends v.GenericSchema>(
  api: Upstream,
  path: string,
  result: S,
  query: Record<string, string>,
): Promise<v.InferOutput<S>> {
  const answer = await api.json(path, Envelope, { query });
  if (answer.code !== 1 && answer.code !== 2)
    throw upstreamFailed("goplus", `GoPlus answered code ${answer.code}: ${answer.message}`);
  return checkUpstream("goplus", result, answer.result);
}

/** GoPlus flags are "0"/"1" strings, absent when unknown. */
export const flag = (value: unknown): boolean | null =>
  value === "1" || value === 1 ? true : value === "0" || value === 0 ? false : null;

/** Taxes and percentages come as decimal strings ("0.05" = 5%); absent or empty means unknown. */
export const fraction = (value: unknown): number | null =>
  typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : null;
