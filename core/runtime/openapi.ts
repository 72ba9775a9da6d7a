import type { Endpoint } from "../endpoint.ts";
import type { Discovery } from "../payment/discovery.ts";
import { countLine } from "./agent-surface.ts";
import { agentEndpoints } from "../shared.ts";
import { isFree } from "../shared.ts";
import { errorExamples, parameterExamples } from "./openapi-examples.ts";
import { envelope, exampleAnswer, schemasOf, type JsonSchema } from "./schema.ts";
import { signInResponses, signInSecurityScheme } from "../sign-in/openapi.ts";

const errorResponse = (status: number, description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, example: errorExamples[status] } },
});

type ExampleOf = ReturnType<typeof parameterExamples>;

/**
 * OpenAPI 3.1 of the endpoints agents call (a page's own routes stay out), as x402scan and its discovery
 * library read it first: per operation an explicit `security: []` (no account or key) with the price in
 * `x-payment-info`, the 402 documented, and an example on every parameter and response.
 */
export function toOpenApi(loaded: Endpoint[], discovery: Discovery, baseUrl: string) {
  const endpoints = agentEndpoints(loaded);
  const exampleOf = parameterExamples(endpoints);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of [...endpoints].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e, discovery, endpoints, exampleOf);
    if (e.acceptsBody && e.method === "GET")
      paths[e.path].post = operation({ ...e, method: "POST", name: `${e.name}-post` }, discovery, endpoints, exampleOf);
  }
  const families = [...new Set(endpoints.map((e) => e.family))].sort();
  return {
    openapi: "3.1.0",
    info: {
      title: "x402 agent services",
      version: "1.0.0",
      description:
        `Pay-per-call data and tools for agents, paid in USDC over x402 (v1 and v2). ${countLine(endpoints)}. ${discovery.optionsLine} ` +
        "Invalid input, an unknown parameter among it, is answered 400 before any payment; upstream failures are never charged.",
      contact: { name: "x402 agent services", url: `${baseUrl}/docs` },
      "x-guidance":
        "Call a route; answer its 402 with an x402 payment (PAYMENT-SIGNATURE for v2, X-PAYMENT for v1) and call it again. Every operation's examples form a call that works.",
    },
    servers: [{ url: baseUrl }],
    "x-service-info": {
      categories: families,
      docs: { homepage: `${baseUrl}/`, apiReference: `${baseUrl}/docs`, llms: `${baseUrl}/llms.txt` },
    },
    "x-discovery": { llmsTxtUrl: `${baseUrl}/llms.txt` },
    tags: families.map((name) => ({ name, description: `The ${name} endpoints` })),
    paths,
    components: {
      securitySchemes: {
        ...discovery.openApi.securitySchemes,
        siwx: signInSecurityScheme,
      },
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
        ...discovery.openApi.schemas,
      },
    },
  };
}

function operation(e: Endpoint, discovery: Discovery, catalog: readonly Endpoint[], exampleOf: ExampleOf) {
  const { input, output } = schemasOf(e);
  const security = e.signIn ? [{ siwx: [] }] : [];
  const op: Record<string, unknown> = { operationId: e.name, summary: e.summary, tags: [e.family], security };
  if (e.description) op.description = e.description;
  if (e.method === "GET") op.parameters = queryParameters(e, input, exampleOf);
  else
    op.requestBody = { required: true, content: { "application/json": { schema: input, example: e.example.input } } };

  const data = e.raw ? output : envelope(output);
  const responses: Record<string, unknown> = {
    200: { description: "The answer", content: { "application/json": { schema: data, example: exampleAnswer(e) } } },
    400: errorResponse(
      400,
      "Invalid input, with every field problem listed, an unknown parameter among them; never charged",
    ),
    429: errorResponse(429, "Rate limited; see Retry-After"),
    502: errorResponse(502, "Upstream failed; not charged"),
    503: errorResponse(503, "Upstream unavailable; see Retry-After; not charged"),
    504: errorResponse(504, "Timed out; not charged"),
  };
  if (!isFree(e)) {
    op["x-payment-info"] = { price: priceOf(e, catalog), protocols: discovery.openApi.protocols(e) };
    responses[402] = discovery.openApi.challenge(e);
  }
  op.responses = e.signIn ? { ...responses, ...signInResponses } : responses;
  return op;
}

/** A fixed price, or the bounds of one computed from the call (the batch: its items). */
function priceOf(e: Endpoint, catalog: readonly Endpoint[]) {
  const usd = (price: string) => price.slice(1);
  if (!e.priceOf || !e.maxPriceOf) return { mode: "fixed", currency: "USD", amount: usd(e.price) };
  return { mode: "dynamic", currency: "USD", min: usd(e.price), max: usd(e.maxPriceOf(catalog)) };
}

/**
 * A parameter the example call gives carries that value as its `example`, which Swagger's "Try it out" and
 * indexers' probes send; together they are the call, so they reach the 402. Any other parameter has its
 * example in its schema only, for a sampler that fills every example; so that its call still reaches the 402,
 * the alternatives the example call does not take (the other groups of a one-of) carry none.
 */
function queryParameters(e: Endpoint, input: JsonSchema, exampleOf: ExampleOf) {
  const call = e.example.input as Record<string, unknown>;
  const required = new Set<string>(input.required ?? []);
  const untaken = new Set((e.oneOf ?? []).filter((group) => !group.some((f) => call[f] !== undefined)).flat());
  return Object.entries<JsonSchema>(input.properties ?? {}).map(([name, property]) => {
    const inCall = call[name] !== undefined;
    const example = inCall ? call[name] : untaken.has(name) ? undefined : exampleOf(name, property);
    const schema = example === undefined ? property : { ...property, examples: [example] };
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(property.description ? { description: property.description } : {}),
      // Structured values travel as JSON text; lists of scalars as comma-separated values.
      ...(isStructured(property)
        ? { content: { "application/json": { schema, ...(inCall ? { example } : {}) } } }
        : { schema }),
      ...(property.type === "array" && !isStructured(property) ? { style: "form", explode: false } : {}),
      ...(inCall && !isStructured(property) ? { example } : {}),
    };
  });
}

const isStructured = (schema: JsonSchema) =>
  schema.type === "object" || (schema.type === "array" && schema.items?.type === "object");
