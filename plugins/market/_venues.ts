import * as v from "valibot";
import { notFound, ServiceError, upstreamFailed } from "../../core/runtime/errors.ts";

/** Which venues answered a multi-venue read and which did not (and why), so a partial answer says what is missing. */
export const SourcesReport = v.object({
  answered: v.pipe(v.array(v.string()), v.description("Upstreams whose data is in this answer")),
  missing: v.pipe(
    v.array(v.object({ venue: v.string(), reason: v.string() })),
    v.description("Upstreams asked that failed or refused (e.g. Binance answers 451 to US addresses)"),
  ),
});
export type SourcesReport = v.InferOutput<typeof SourcesReport>;

export interface Gathered<T> {
  values: { venue: string; value: T }[];
  sources: SourcesReport;
}

/**
 * Reads every venue at once and keeps what answered. Fails only when none did: with the status of the
 * first failure (502, 503 or 504, never charged) and every venue's reason in the details.
 */
export async function gatherVenues<T>(
  readers: Record<string, () => Promise<T>>,
  signal?: AbortSignal,
): Promise<Gathered<T>> {
  const names = Object.keys(readers);
  const settled = await Promise.allSettled(names.map((name) => readers[name]()));
  if (signal?.aborted) throw signal.reason;
  const values: Gathered<T>["values"] = [];
  const missing: SourcesReport["missing"] = [];
  const errors: unknown[] = [];
  settled.forEach((result, i) => {
    if (result.status === "fulfilled") values.push({ venue: names[i], value: result.value });
    else {
      errors.push(result.reason);
      missing.push({ venue: names[i], reason: reasonOf(result.reason) });
    }
  });
  if (values.length === 0) throw allFailed(errors, missing);
  return { values, sources: { answered: values.map((x) => x.venue), missing } };
}

/** Tries venues in order and answers with the first that works; the ones that failed before it are listed. */
export async function firstVenue<T>(
  readers: Record<string, () => Promise<T>>,
  signal?: AbortSignal,
): Promise<{ venue: string; value: T; sources: SourcesReport }> {
  const missing: SourcesReport["missing"] = [];
  const errors: unknown[] = [];
  for (const [venue, read] of Object.entries(readers)) {
    try {
      const value = await read();
      return { venue, value, sources: { answered: [venue], missing } };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      errors.push(error);
      missing.push({ venue, reason: reasonOf(error) });
    }
  }
  throw allFailed(errors, missing);
}

function reasonOf(error: unknown): string {
  if (error instanceof ServiceError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function allFailed(errors: unknown[], missing: SourcesReport["missing"]): ServiceError {
  const first = errors.find((e): e is ServiceError => e instanceof ServiceError && e.status >= 500);
  const message = `No source answered: ${missing.map((m) => `${m.venue} (${m.reason})`).join("; ")}`;
  if (errors.every((e) => e instanceof ServiceError && e.status === 404)) return notFound(message, { missing });
  if (!first) return upstreamFailed(missing.map((m) => m.venue).join(","), message);
  return new ServiceError(first.status, first.code, message, { missing }, first.headers);
}
