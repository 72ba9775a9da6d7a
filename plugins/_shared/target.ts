import type { Egress, TargetResponse } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

/** The caller's target answered in a way that leaves nothing to report: 502, never charged. */
export function targetError(message: string, details?: unknown): ServiceError {
  return new ServiceError(502, "target_error", message, details);
}

export interface TimedResponse {
  response: TargetResponse;
  /** Milliseconds for the whole exchange: resolving, every redirect and the body. */
  ms: number;
}

/** Fetches through the egress guard and measures how long it took. */
export async function timedFetch(
  egress: Egress,
  url: string,
  init?: Parameters<Egress["fetch"]>[1],
): Promise<TimedResponse> {
  const started = performance.now();
  const response = await egress.fetch(url, init);
  return { response, ms: elapsedSince(started) };
}

export function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** The guard's URL for a TLS or other non-HTTP probe of host:port (IPv6 literals bracketed). */
export function probeUrl(host: string, port: number): string {
  const bare = host.replace(/\.$/, "");
  const hostPart = bare.includes(":") ? `[${bare}]` : bare;
  return port === 443 ? `https://${hostPart}/` : `https://${hostPart}:${port}/`;
}
