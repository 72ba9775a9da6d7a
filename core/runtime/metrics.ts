import type { EndpointStats } from "../endpoint.ts";

/** Per-endpoint outcomes and latencies of this instance, for the service report. */
export interface Metrics {
  record(endpoint: string, status: number, ms: number): void;
  snapshot(): EndpointStats[];
}

/** Latencies of the last this-many calls per endpoint feed the percentiles. */
const window = 512;

export function createMetrics(): Metrics {
  const byEndpoint = new Map<
    string,
    { calls: number; ok: number; clientErrors: number; serverErrors: number; latencies: number[]; next: number }
  >();
  return {
    record(endpoint, status, ms) {
      let m = byEndpoint.get(endpoint);
      if (!m)
        byEndpoint.set(endpoint, (m = { calls: 0, ok: 0, clientErrors: 0, serverErrors: 0, latencies: [], next: 0 }));
      m.calls++;
      if (status < 400) m.ok++;
      else if (status < 500) m.clientErrors++;
      else m.serverErrors++;
      m.latencies[m.next] = ms;
      m.next = (m.next + 1) % window;
    },
    snapshot() {
      return [...byEndpoint]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([endpoint, m]) => {
          const sorted = [...m.latencies].sort((a, b) => a - b);
          const at = (q: number) =>
            Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
          // Bad input is the caller's doing: the success rate is answers against answers plus our failures.
          const judged = m.ok + m.serverErrors;
          return {
            endpoint,
            calls: m.calls,
            ok: m.ok,
            clientErrors: m.clientErrors,
            serverErrors: m.serverErrors,
            successRate: judged ? Math.round((m.ok / judged) * 10_000) / 10_000 : null,
            latencyMs: sorted.length ? { p50: at(0.5), p95: at(0.95), p99: at(0.99) } : null,
          };
        });
    },
  };
}
