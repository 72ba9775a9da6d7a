import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import {
  agentCardDoc,
  discovered,
  healthDoc,
  llmsTxtDoc,
  openApiDoc,
  probeDoc,
  probeSchema,
  x402Doc,
} from "./_discovery.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { targetError } from "../_shared/target.ts";

export default defineEndpoint({
  name: "agent-health",
  method: "GET",
  price: "$0.02",
  probes: true,
  summary:
    "Probe an AI agent or x402 service: health route and discovery documents (x402, A2A agent card, OpenAPI, llms.txt)",
  description:
    "GETs, in parallel and through the egress guard, the health path (default /health) and /.well-known/x402, " +
    "/.well-known/agent-card.json, /.well-known/agent.json, /openapi.json and /llms.txt on the base URL's origin, and " +
    "reports for each: status, latency, and whether the document has the expected shape. A path that fails is " +
    "reported with its error; if nothing answers at all the call is a 502 and is not charged.",
  input: v.object({
    url: urlInput("Base URL of the agent or service, e.g. https://agent.example.com"),
    path: v.optional(
      v.pipe(v.string(), v.regex(/^\//, "must start with /"), v.maxLength(200), v.description("Health path")),
      "/health",
    ),
  }),
  output: v.object({
    url: v.string(),
    healthy: v.pipe(v.boolean(), v.description("The health path answered 2xx")),
    discovered: v.pipe(v.array(v.string()), v.description("Documents found with a valid shape")),
    probes: v.array(probeSchema),
  }),
  example: {
    input: { url: "https://agent.example.com", path: "/health" },
    output: {
      url: "https://agent.example.com",
      healthy: true,
      discovered: ["x402", "openapi", "llms-txt"],
      probes: [
        {
          name: "health",
          url: "https://agent.example.com/health",
          status: 200,
          found: true,
          valid: true,
          note: "ok",
          latencyMs: 88.1,
          contentType: "application/json",
          error: null,
        },
        {
          name: "x402",
          url: "https://agent.example.com/.well-known/x402",
          status: 200,
          found: true,
          valid: true,
          note: "42 resources",
          latencyMs: 91.5,
          contentType: "application/json",
          error: null,
        },
        {
          name: "agent-card",
          url: "https://agent.example.com/.well-known/agent-card.json",
          status: 404,
          found: false,
          valid: null,
          note: null,
          latencyMs: 85.2,
          contentType: "text/html",
          error: null,
        },
        {
          name: "agent-json",
          url: "https://agent.example.com/.well-known/agent.json",
          status: 404,
          found: false,
          valid: null,
          note: null,
          latencyMs: 86.0,
          contentType: "text/html",
          error: null,
        },
        {
          name: "openapi",
          url: "https://agent.example.com/openapi.json",
          status: 200,
          found: true,
          valid: true,
          note: "OpenAPI 3.1.0, 42 paths",
          latencyMs: 97.3,
          contentType: "application/json",
          error: null,
        },
        {
          name: "llms-txt",
          url: "https://agent.example.com/llms.txt",
          status: 200,
          found: true,
          valid: true,
          note: "Example agent",
          latencyMs: 84.9,
          contentType: "text/plain",
          error: null,
        },
      ],
    },
  },
  cacheTtl: 60,
  async handler({ input, egress }) {
    await egress.check(input.url);
    const specs = [
      healthDoc(input.path),
      x402Doc,
      agentCardDoc("/.well-known/agent-card.json"),
      agentCardDoc("/.well-known/agent.json"),
      openApiDoc("/openapi.json"),
      llmsTxtDoc,
    ];
    const probes = await Promise.all(specs.map((spec) => probeDoc(egress, input.url, spec)));
    if (probes.every((p) => p.status === null))
      throw targetError(`nothing at ${input.url} answered`, { errors: probes.map((p) => p.error) });
    return { url: input.url, healthy: probes[0].found, discovered: discovered(probes), probes };
  },
});
