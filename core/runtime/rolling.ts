/**
 * This instance's last hour, minute by minute, for the status page: calls, failures and a latency histogram per
 * key (a family, an upstream, a network's settlements). Bounded: sixty minutes of fixed buckets per key.
 */
const minuteMs = 60_000;
const minutes = 60;
/** Latency bucket upper bounds in ms, each 25% above the last, from 1 ms to past two minutes. */
const bounds = Array.from({ length: 54 }, (_, i) => 1.25 ** i);

interface Minute {
  /** Minutes since the epoch. */
  at: number;
  calls: number;
  failed: number;
  latency: Uint32Array;
}

export interface WindowSummary {
  calls: number;
  failed: number;
  /** Answers against answers plus our failures; null without any call. */
  successRate: number | null;
  latencyMs: { p50: number; p95: number } | null;
  /** Oldest first, one entry per minute of the hour (empty minutes included). */
  perMinute: { calls: number; failed: number; p95: number | null }[];
}

export interface Rolling {
  /** One outcome: `failed` for ours (a 5xx, an upstream's fault), `undefined` when it judges neither (bad input). */
  record(key: string, ms: number, failed: boolean | undefined): void;
  summary(key: string): WindowSummary;
}

export function createRolling(now: () => number = Date.now): Rolling {
  const byKey = new Map<string, Minute[]>();
  const minuteOf = (ring: Minute[], at: number): Minute => {
    const slot = at % minutes;
    let m = ring[slot];
    if (!m || m.at !== at) ring[slot] = m = { at, calls: 0, failed: 0, latency: new Uint32Array(bounds.length) };
    return m;
  };
  return {
    record(key, ms, failed) {
      if (failed === undefined) return;
      let ring = byKey.get(key);
      if (!ring) byKey.set(key, (ring = []));
      const m = minuteOf(ring, Math.floor(now() / minuteMs));
      m.calls++;
      if (failed) m.failed++;
      m.latency[bucketOf(ms)]++;
    },
    summary(key) {
      const current = Math.floor(now() / minuteMs);
      const ring = byKey.get(key) ?? [];
      const hour = new Uint32Array(bounds.length);
      let calls = 0;
      let failed = 0;
      const perMinute: WindowSummary["perMinute"] = [];
      for (let at = current - minutes + 1; at <= current; at++) {
        const m = ring[at % minutes];
        if (!m || m.at !== at) {
          perMinute.push({ calls: 0, failed: 0, p95: null });
          continue;
        }
        calls += m.calls;
        failed += m.failed;
        for (let i = 0; i < bounds.length; i++) hour[i] += m.latency[i];
        perMinute.push({ calls: m.calls, failed: m.failed, p95: quantile(m.latency, m.calls, 0.95) });
      }
      return {
        calls,
        failed,
        successRate: calls ? Math.round(((calls - failed) / calls) * 10_000) / 10_000 : null,
        latencyMs: calls ? { p50: quantile(hour, calls, 0.5)!, p95: quantile(hour, calls, 0.95)! } : null,
        perMinute,
      };
    },
  };
}

function bucketOf(ms: number): number {
  const i = ms <= 1 ? 0 : Math.ceil(Math.log(ms) / Math.log(1.25));
  return Math.min(i, bounds.length - 1);
}

/** The bucket's upper bound where the q-th call falls: within 25% of the true value. */
function quantile(histogram: Uint32Array, count: number, q: number): number | null {
  if (!count) return null;
  const rank = Math.ceil(q * count);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i];
    if (seen >= rank) return Math.round(bounds[i] * 10) / 10;
  }
  return Math.round(bounds[bounds.length - 1]);
}

/** The instance's own window, fed by the call path, the upstream client and the payment gate. */
export const lastHour = createRolling();
