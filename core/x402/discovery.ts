import type { Endpoint } from "../endpoint.ts";
import type { Discovery, PaymentSeries } from "../payment/discovery.ts";
import { countLine } from "../runtime/agent-surface.ts";
import { agentEndpoints, isFree } from "../shared.ts";
import { bazaarOf } from "./bazaar.ts";
import { optionsLine, type PaymentOption, type RouteRequirements } from "./requirements.ts";

/** x402's parts of the published documents and MCP answers, read from the route's requirements. */
export function x402Discovery(
  options: PaymentOption[],
  baseUrl: string,
  requirements: (endpoint: Endpoint) => RouteRequirements,
): Discovery {
  const paidAgentRoutes = (endpoints: readonly Endpoint[]) => agentEndpoints(endpoints).filter((e) => !isFree(e));
  return {
    optionsLine: optionsLine(options),
    documents: [
      {
        path: "/x402-manifest",
        label: "x402 manifest",
        // Every paid agent route with its requirements and its 402's Bazaar discovery entry.
        build: (loaded) => ({
          x402Version: 2,
          name: "x402 agent services",
          baseUrl,
          count: countLine(loaded),
          payment: {
            scheme: "exact",
            options,
            protocols: ["x402 v1 (X-PAYMENT)", "x402 v2 (PAYMENT-SIGNATURE)"],
          },
          pricing: "Per call, charged only for a 200 answer; cached answers cost the same as fresh ones.",
          resources: paidAgentRoutes(loaded)
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((e) => ({
              resource: requirements(e).resource.url,
              type: "http",
              name: e.name,
              family: e.family,
              method: e.method,
              description: e.summary,
              price: e.price,
              accepts: requirements(e).v2,
              extensions: { bazaar: bazaarOf(e) },
            })),
        }),
      },
      {
        // As x402scan's DISCOVERY.md gives it: the paid resources' URLs, and guidance.
        path: "/.well-known/x402",
        build: (endpoints) => ({
          version: 1,
          resources: paidAgentRoutes(endpoints).map((e) => baseUrl + e.path),
          instructions:
            `${countLine(endpoints)}. OpenAPI with prices and examples: ${baseUrl}/openapi.json. MCP: ${baseUrl}/mcp. ` +
            "Call a resource; answer its 402 with an x402 payment (PAYMENT-SIGNATURE for v2, X-PAYMENT for v1). Bad input, an unknown parameter among it, is refused with 400 before any payment." +
            (options.length ? ` ${optionsLine(options)}` : ""),
        }),
      },
    ],
    openApi: {
      securitySchemes: {
        x402: {
          type: "apiKey",
          in: "header",
          name: "PAYMENT-SIGNATURE",
          description:
            "Not a key: the x402 v2 payment for one call, answering that call's 402 (X-PAYMENT for x402 v1). Operations declare `security: []` because nothing is needed before the 402; `x-payment-info` gives the price.",
        },
      },
      schemas: {
        PaymentRequired: {
          type: "object",
          description: "x402 v1 challenge body; v2 clients read the PAYMENT-REQUIRED header instead.",
          required: ["x402Version", "error", "accepts"],
          properties: {
            x402Version: { const: 1 },
            error: { type: "string" },
            accepts: { type: "array", items: { type: "object" } },
          },
        },
      },
      protocols: (e) => [{ x402: { versions: [1, 2], accepts: requirements(e).v2 } }],
      challenge: (e) => ({
        description:
          "Payment required: requirements in PAYMENT-REQUIRED (v2, base64 JSON), X-PAYMENT-Requirements (JSON) and the body (v1)",
        headers: {
          "PAYMENT-REQUIRED": { schema: { type: "string" }, description: "base64 JSON PaymentRequired (x402 v2)" },
          "X-PAYMENT-Requirements": { schema: { type: "string" }, description: "JSON {x402Version, accepts}" },
        },
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/PaymentRequired" },
            example: { x402Version: 1, error: "Payment required", accepts: requirements(e).v1 },
          },
        },
      }),
    },
    mcp: {
      accepts: (e) => requirements(e).v2,
      required(e) {
        const { resource, v2 } = requirements(e);
        return { x402Version: 2, error: "Payment required", resource, accepts: v2 };
      },
    },
    metrics: {
      payments: options.flatMap((o) => seriesOf(o).map((kind) => ({ ...kind, network: o.network }))),
      vouchers: options.filter((o) => o.batch).map((o) => o.network),
    },
  };
}

/** The protocol and scheme an option can be paid with: x402 v1 names EVM networks only. */
const seriesOf = (o: PaymentOption): Omit<PaymentSeries, "network">[] => [
  { protocol: "x402v2", scheme: "exact" },
  ...(o.network.startsWith("eip155:") ? [{ protocol: "x402v1", scheme: "exact" }] : []),
  ...(o.upto ? [{ protocol: "x402v2", scheme: "upto" }] : []),
  ...(o.batch ? [{ protocol: "x402v2", scheme: "batch-settlement" }] : []),
];
