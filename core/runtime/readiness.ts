import type { H3 } from "h3";
import type { Store } from "../endpoint.ts";

/** Throws (or rejects) when the dependency it checks cannot be used; gets a signal that aborts at the timeout. */
export type Probe = (signal: AbortSignal) => Promise<unknown>;

export interface ReadinessReport {
  status: "ready" | "unready" | "draining";
  /** `ok` or why the part failed, per part (store, payment-chain, facilitator). */
  checks: Record<string, string>;
}

export interface ReadinessOptions {
  probes: Record<string, Probe>;
  /** True once the service is shutting down: the load balancer should stop sending calls. */
  draining: () => boolean;
  /** How long one report is reused, so a load balancer polling often costs one probe round per interval. */
  cacheMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/** The store answers a read: the cheapest check that exercises the same path as every call. */
export const storeProbe =
  (store: Store): Probe =>
  () =>
    store.get("ready:probe");

/** Readiness: every part the paid path needs, probed together, cached for a moment, shared by concurrent askers. */
export function createReadiness(o: ReadinessOptions) {
  const cacheMs = o.cacheMs ?? 1500;
  const timeoutMs = o.timeoutMs ?? 2000;
  const now = o.now ?? Date.now;
  let cached: { at: number; report: Promise<ReadinessReport> } | undefined;

  const probeAll = async (): Promise<ReadinessReport> => {
    const entries = await Promise.all(
      Object.entries(o.probes).map(async ([name, probe]) => [name, await outcome(probe, timeoutMs)] as const),
    );
    const checks = Object.fromEntries(entries);
    return { status: entries.every(([, result]) => result === "ok") ? "ready" : "unready", checks };
  };

  return {
    async report(): Promise<ReadinessReport> {
      if (o.draining()) return { status: "draining", checks: {} };
      if (!cached || now() - cached.at >= cacheMs) cached = { at: now(), report: probeAll() };
      return cached.report;
    },
  };
}

async function outcome(probe: Probe, timeoutMs: number): Promise<string> {
  const deadline = new AbortController();
  const timedOut = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no answer within ${timeoutMs} ms`));
      deadline.abort();
    }, timeoutMs);
    deadline.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });
  try {
    await Promise.race([probe(deadline.signal), timedOut]);
    return "ok";
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    deadline.abort();
  }
}

/** `GET /ready`: 200 when every part answers, 503 with the failing parts (or while draining). */
export function mountReadiness(app: H3, readiness: ReturnType<typeof createReadiness>) {
  app.get("/ready", async () => {
    const report = await readiness.report();
    return new Response(JSON.stringify(report), {
      status: report.status === "ready" ? 200 : 503,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  });
}
