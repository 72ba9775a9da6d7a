import { readFileSync } from "node:fs";
import * as v from "valibot";
import { defineEndpoint } from "../../endpoint.ts";

const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  version: string;
};
const bootedAt = Date.now();

const endpointStats = v.object({
  endpoint: v.string(),
  calls: v.number(),
  ok: v.number(),
  clientErrors: v.number(),
  serverErrors: v.number(),
  successRate: v.pipe(
    v.nullable(v.number()),
    v.description(
      "Answers over answers plus our failures (bad input is the caller's and does not count); null before any",
    ),
  ),
  latencyMs: v.nullable(v.object({ p50: v.number(), p95: v.number(), p99: v.number() })),
});

/** The service's own report: `the service` in the spec's catalog, whose name was lost; served at /v1/service. */
export const service = defineEndpoint({
  name: "service",
  method: "GET",
  price: "$0.01",
  summary: "The service's own report: success rates and latency per endpoint, upstream circuits, settlements, version",
  description:
    "Endpoint figures are this instance's since it started (the last 512 calls feed the percentiles); settlement counters cover every instance sharing the store. " +
    "Circuits list each upstream called since boot: closed (healthy), open (failing, calls refused until the cooldown ends) or half-open (probing).",
  input: v.object({}),
  output: v.object({
    version: v.string(),
    uptimeSeconds: v.number(),
    endpointsLoaded: v.number(),
    disabled: v.array(v.object({ name: v.string(), reason: v.string() })),
    endpoints: v.array(endpointStats),
    upstreams: v.array(v.object({ name: v.string(), circuit: v.picklist(["closed", "open", "half-open"]) })),
    settlements: v.object({
      settled: v.number(),
      settledUsdc: v.pipe(v.string(), v.description("Total settled, in USDC")),
      failed: v.pipe(v.number(), v.description("Refused by the facilitator: nothing moved, the answer withheld")),
      indeterminate: v.pipe(v.number(), v.description("Facilitator timeouts sent to reconciliation")),
      pending: v.pipe(v.number(), v.description("Still awaiting reconciliation")),
    }),
  }),
  example: {
    input: {},
    output: {
      version: "1.0.0",
      uptimeSeconds: 3600,
      endpointsLoaded: 250,
      disabled: [{ name: "patents", reason: "missing key for upstream uspto" }],
      endpoints: [
        {
          endpoint: "hash",
          calls: 120,
          ok: 118,
          clientErrors: 2,
          serverErrors: 0,
          successRate: 1,
          latencyMs: { p50: 0.6, p95: 1.4, p99: 2.9 },
        },
      ],
      upstreams: [{ name: "coingecko", circuit: "closed" }],
      settlements: { settled: 118, settledUsdc: "0.118", failed: 0, indeterminate: 0, pending: 0 },
    },
  },
  async handler({ catalog, instance }) {
    const stats = await instance.settlements();
    return {
      version,
      uptimeSeconds: Math.round((Date.now() - bootedAt) / 1000),
      endpointsLoaded: catalog.length,
      disabled: [...instance.disabled],
      endpoints: instance.calls(),
      upstreams: Object.entries(instance.circuits())
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, circuit]) => ({ name, circuit })),
      settlements: {
        settled: stats.settled,
        settledUsdc: (stats.settledAtomic / 1e6).toFixed(6).replace(/\.?0+$/, ""),
        failed: stats.failed,
        indeterminate: stats.indeterminate,
        pending: stats.pending,
      },
    };
  },
});
