import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import {
  attempt,
  discovered,
  llmsTxtDoc,
  openApiDoc,
  probeDoc,
  probeSchema,
  x402Doc,
  type Attempt,
} from "./_discovery.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { targetError } from "../_shared/target.ts";

const rateLimitHeader = /^(x-)?rate-?limit|^retry-after$/;

export default defineEndpoint({
  name: "api-health",
  method: "GET",
  price: "$0.03",
  probes: true,
  summary:
    "Probe an API: repeated health checks with availability and latency, CORS and rate-limit headers, OpenAPI/x402/llms.txt discovery",
  description:
    "GETs the health path (default /health, on the base URL's origin) `samples` times in a row, then, in parallel, " +
    "/openapi.json, /swagger.json, /.well-known/x402 and /llms.txt, all through the egress guard. Availability is the " +
    "share of samples answering 2xx; latency is over the samples that answered. CORS and rate-limit headers come from " +
    "the last answer. If nothing answers at all the call is a 502 and is not charged.",
  input: v.object({
    url: urlInput("Base URL of the API, e.g. https://api.example.com"),
    path: v.optional(
      v.pipe(v.string(), v.regex(/^\//, "must start with /"), v.maxLength(200), v.description("Health path")),
      "/health",
    ),
    samples: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(5),
        v.description("Health requests to send, one after another"),
      ),
      3,
    ),
  }),
  output: v.object({
    url: v.string(),
    healthUrl: v.string(),
    healthy: v.pipe(v.boolean(), v.description("Every sample answered 2xx")),
    availability: v.pipe(v.number(), v.description("Share of samples answering 2xx, 0 to 1")),
    samples: v.array(
      v.object({ status: v.nullable(v.number()), latencyMs: v.number(), error: v.nullable(v.string()) }),
    ),
    latencyMs: v.nullable(v.object({ min: v.number(), median: v.number(), max: v.number() })),
    cors: v.nullable(v.pipe(v.string(), v.description("Access-Control-Allow-Origin of the last answer"))),
    rateLimit: v.pipe(
      v.record(v.string(), v.string()),
      v.description("RateLimit-*, X-RateLimit-* and Retry-After headers of the last answer"),
    ),
    discovered: v.array(v.string()),
    probes: v.array(probeSchema),
  }),
  example: {
    input: { url: "https://api.example.com", path: "/health", samples: 3 },
    output: {
      url: "https://api.example.com",
      healthUrl: "https://api.example.com/health",
      healthy: true,
      availability: 1,
      samples: [
        { status: 200, latencyMs: 92.4, error: null },
        { status: 200, latencyMs: 61.8, error: null },
        { status: 200, latencyMs: 64.3, error: null },
      ],
      latencyMs: { min: 61.8, median: 64.3, max: 92.4 },
      cors: "*",
      rateLimit: { "x-ratelimit-limit": "600", "x-ratelimit-remaining": "597" },
      discovered: ["openapi"],
      probes: [
        {
          name: "openapi",
          url: "https://api.example.com/openapi.json",
          status: 200,
          found: true,
          valid: true,
          note: "OpenAPI 3.1.0, 12 paths",
          latencyMs: 70.2,
          contentType: "application/json",
          error: null,
        },
        {
          name: "swagger",
          url: "https://api.example.com/swagger.json",
          status: 404,
          found: false,
          valid: null,
          note: null,
          latencyMs: 58.1,
          contentType: "application/json",
          error: null,
        },
        {
          name: "x402",
          url: "https://api.example.com/.well-known/x402",
          status: 404,
          found: false,
          valid: null,
          note: null,
          latencyMs: 57.9,
          contentType: "application/json",
          error: null,
        },
        {
          name: "llms-txt",
          url: "https://api.example.com/llms.txt",
          status: 404,
          found: false,
          valid: null,
          note: null,
          latencyMs: 60.0,
          contentType: "application/json",
          error: null,
        },
      ],
    },
  },
  cacheTtl: 60,
  timeoutMs: 40_000,
  async handler({ input, egress }) {
    await egress.check(input.url);
    const healthUrl = new URL(input.path, input.url).href;
    const runs: Attempt[] = [];
    for (let i = 0; i < input.samples; i++) runs.push(await attempt(egress, healthUrl));
    const specs = [openApiDoc("/openapi.json"), openApiDoc("/swagger.json"), x402Doc, llmsTxtDoc];
    const probes = await Promise.all(specs.map((spec) => probeDoc(egress, input.url, spec)));
    const answered = runs.filter((r) => r.response !== null);
    if (!answered.length && probes.every((p) => p.status === null))
      throw targetError(`nothing at ${input.url} answered`, { error: runs[0].error });
    const good = answered.filter((r) => r.response!.status >= 200 && r.response!.status < 300).length;
    const last = answered.at(-1)?.response?.headers ?? {};
    return {
      url: input.url,
      healthUrl,
      healthy: good === runs.length,
      availability: Math.round((good / runs.length) * 1000) / 1000,
      samples: runs.map((r) => ({ status: r.response?.status ?? null, latencyMs: r.ms, error: r.error })),
      latencyMs: spread(answered.map((r) => r.ms)),
      cors: last["access-control-allow-origin"] ?? null,
      rateLimit: Object.fromEntries(Object.entries(last).filter(([name]) => rateLimitHeader.test(name))),
      discovered: discovered(probes),
      probes,
    };
  },
});

function spread(values: number[]): { min: number; median: number; max: number } | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : Math.round(((sorted[mid - 1] + sorted[mid]) / 2) * 10) / 10;
  return { min: sorted[0], median, max: sorted[sorted.length - 1] };
}
