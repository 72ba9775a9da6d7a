import type { Endpoint } from "../endpoint.ts";
import type { PaymentGate } from "../x402/gate.ts";
import { isFree } from "./invoke.ts";
import { schemasOf, type JsonSchema } from "./schema.ts";

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** OpenAPI 3.1 of the loaded endpoints: one operation per route, the price in `x-payment-info`, the 402 documented. */
export function toOpenApi(endpoints: Endpoint[], gate: PaymentGate, baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of [...endpoints].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e, gate);
    if (e.acceptsBody && e.method === "GET") paths[e.path].post = operation({ ...e, method: "POST", name: `${e.name}-post` }, gate);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "x402 agent services",
      version: "1.0.0",
      description:
        "Pay-per-call data and tools for agents, paid in USDC over x402 (v1 and v2). Invalid input is answered 400 before any payment; upstream failures are never charged.",
    },
    servers: [{ url: baseUrl }],
    tags: [...new Set(endpoints.map((e) => e.family))].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
            },
          },
        },
        PaymentRequired: {
          type: "object",
          description: "x402 v1 challenge body; v2 clients read the PAYMENT-REQUIRED header instead.",
          required: ["x402Version", "error", "accepts"],
          properties: { x402Version: { const: 1 }, error: { type: "string" }, accepts: { type: "array", items: { type: "object" } } },
        },
      },
    },
  };
}

function operation(e: Endpoint, gate: PaymentGate) {
  const { input, output } = schemasOf(e);
  const op: Record<string, unknown> = { operationId: e.name, summary: e.summary, tags: [e.family] };
  if (e.description) op.description = e.description;
  if (e.method === "GET") op.parameters = queryParameters(input);
  else op.requestBody = { required: true, content: { "application/json": { schema: input, example: e.example.input } } };

  const data = e.raw ? output : envelope(output);
  const responses: Record<string, unknown> = {
    200: { description: "The answer", content: { "application/json": { schema: data } } },
    400: errorResponse("Invalid input, with every field problem listed; never charged"),
    429: errorResponse("Rate limited; see Retry-After"),
    502: errorResponse("Upstream failed; not charged"),
    503: errorResponse("Upstream unavailable; see Retry-After; not charged"),
    504: errorResponse("Timed out; not charged"),
  };
  if (!isFree(e)) {
    const requirements = gate.requirements(e);
    op["x-payment-info"] = { price: e.price, amount: requirements.amount, protocols: ["x402"], x402Versions: [1, 2], accepts: requirements.v2 };
    responses[402] = {
      description: "Payment required: requirements in PAYMENT-REQUIRED (v2, base64 JSON), X-PAYMENT-Requirements (JSON) and the body (v1)",
      headers: {
        "PAYMENT-REQUIRED": { schema: { type: "string" }, description: "base64 JSON PaymentRequired (x402 v2)" },
        "X-PAYMENT-Requirements": { schema: { type: "string" }, description: "JSON {x402Version, accepts}" },
      },
      content: { "application/json": { schema: { $ref: "#/components/schemas/PaymentRequired" } } },
    };
  }
  op.responses = responses;
  return op;
}

function queryParameters(input: JsonSchema) {
  const required = new Set<string>(input.required ?? []);
  return Object.entries<JsonSchema>(input.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(schema.description ? { description: schema.description } : {}),
    // Structured values travel as JSON text; lists of scalars as comma-separated values.
    ...(isStructured(schema) ? { content: { "application/json": { schema } } } : { schema }),
    ...(schema.type === "array" && !isStructured(schema) ? { style: "form", explode: false } : {}),
  }));
}

const isStructured = (schema: JsonSchema) => schema.type === "object" || (schema.type === "array" && schema.items?.type === "object");

export const envelope = (data: JsonSchema) => ({
  type: "object",
  required: ["meta", "data"],
  properties: {
    meta: {
      type: "object",
      required: ["product", "endpoint", "ts"],
      properties: {
        product: { type: "string" },
        endpoint: { type: "string" },
        ts: { type: "string", format: "date-time" },
        sources: { type: "array", items: { type: "string" } },
        cached: { type: "boolean" },
      },
    },
    data,
  },
});
