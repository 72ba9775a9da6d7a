import autocannon from "autocannon";
import { startServer } from "../lib/child.ts";
import { sampleRss, type RssSample } from "../lib/rss.ts";
import type { Scenario } from "./scenario.ts";

/** Seconds of load; BENCH_SOAK_S changes it (the whole bench run waits for it). */
export const SOAK_S = Number(process.env.BENCH_SOAK_S ?? 300);
const IDLE_AFTER_S = 20;
const SAMPLE_MS = 2000;

/** Each connection cycles through these: the unpaid paths every agent hits first, and a free route. */
const requests = [
  { path: "/v1/hash?text=hi", status: 402 },
  { path: "/v1/hash?algo=nope", status: 400 },
  { path: "/v1/base64?text=soak&mode=encode", status: 402 },
  { path: "/health", status: 200 },
];

/** Least-squares slope of RSS over time, in MB per minute. */
function slopeMBPerMin(samples: RssSample[]): number {
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.atS, 0) / n;
  const my = samples.reduce((a, s) => a + s.rssMB, 0) / n;
  const num = samples.reduce((a, s) => a + (s.atS - mx) * (s.rssMB - my), 0);
  const den = samples.reduce((a, s) => a + (s.atS - mx) ** 2, 0);
  return (num / den) * 60;
}

/**
 * A long run against one instance of the built service (`npm start`, background jobs on) to look for a
 * slow leak: resident memory sampled every 2 s under load, then at rest.
 */
export const soak: Scenario = {
  id: "soak",
  async run(ctx) {
    const server = await startServer("ours", { JOBS: "on" }, ctx.nodeArgs("ours", "soak"));
    const rss = sampleRss(server.pid, SAMPLE_MS);
    try {
      rss.phase("load");
      const result = await autocannon({
        url: server.url,
        connections: 50,
        duration: SOAK_S,
        requests: requests.map((r) => ({ method: "GET", path: r.path })),
      });
      rss.phase("rest");
      await new Promise((resolve) => setTimeout(resolve, IDLE_AFTER_S * 1000));
      const samples = rss.stop();
      const load = samples.filter((s) => s.phase === "load");
      const secondHalf = load.filter((s) => s.atS >= SOAK_S / 2);
      const atMinute = (m: number) =>
        load.reduce((best, s) => (Math.abs(s.atS - m * 60) < Math.abs(best.atS - m * 60) ? s : best));
      const minutes = Array.from({ length: Math.floor(SOAK_S / 60) }, (_, i) => i + 1);
      const expected = new Set(requests.map((r) => String(r.status)));
      const codes = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count] as const);
      const unexpected = codes.filter(([code]) => !expected.has(code)).reduce((a, [, count]) => a + count, 0);
      const f = (x: number) => x.toFixed(0);
      return {
        id: "soak",
        title: "11. Soak: memory over a long run",
        notes: [
          `bench/servers/ours.mjs (the build, as \`npm start\` runs it, background jobs on, memory store) under ${SOAK_S} s of load at 50 connections, ` +
            `each connection cycling through ${requests.map((r) => `\`${r.path}\` (${r.status})`).join(", ")}; then ${IDLE_AFTER_S} s at rest. ` +
            `RSS read from /proc every ${SAMPLE_MS / 1000} s. Paid calls are left out on purpose: each keeps a ledger record until an hour after its ` +
            "authorization expires (the replay guard), so memory grows with them by design, up to that bound.",
          `${Math.round(result.requests.total).toLocaleString("en-US")} requests, ${Math.round(result.requests.average).toLocaleString("en-US")} req/s on average, ` +
            `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.errors} errors, ${result.timeouts} timeouts, ${unexpected} answers with an unexpected status ` +
            `(${codes.map(([code, count]) => `${code}: ${count.toLocaleString("en-US")}`).join(", ")}).`,
        ],
        rows: [],
        table: [
          "| RSS (MB) | value |",
          "|---|---:|",
          `| at start, before load | ${f(samples[0].rssMB)} |`,
          ...minutes.map((m) => `| after ${m} min of load | ${f(atMinute(m).rssMB)} |`),
          `| highest under load | ${f(Math.max(...load.map((s) => s.rssMB)))} |`,
          `| after ${IDLE_AFTER_S} s at rest | ${f(samples.at(-1)!.rssMB)} |`,
          `| trend over the second half of the load (least squares) | ${slopeMBPerMin(secondHalf).toFixed(2)} MB/min |`,
        ],
        figures: { soakSlopeMBPerMin: slopeMBPerMin(secondHalf), soakUnexpected: unexpected },
      };
    } finally {
      rss.stop();
      await server.stop();
    }
  },
};
