import type { Endpoint } from "../endpoint.ts";
import type { X402Gate } from "../x402/offers.ts";
import { bazaarOf } from "../x402/bazaar.ts";
import { optionsLine, type PaymentOption } from "../x402/requirements.ts";
import { countLine } from "./agent-surface.ts";
import { agentEndpoints } from "../shared.ts";
import { isFree } from "../shared.ts";
import { schemasOf } from "./schema.ts";

/** One entry per endpoint: what registry.json, the manifest and the MCP tool list are built from. */
export function toRegistryEntry(e: Endpoint) {
  const { input, output } = schemasOf(e);
  return {
    name: e.name,
    family: e.family,
    method: e.method,
    path: e.path,
    price: e.price,
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    ...(e.cacheTtl ? { cacheTtl: e.cacheTtl } : {}),
    upstreams: [...(e.upstreams ?? []), ...(e.optionalUpstreams ?? [])],
    ...(e.probes ? { probes: true } : {}),
    mcp: e.mcp === true,
    input,
    output,
    example: e.example,
  };
}

export const buildRegistry = (endpoints: Endpoint[]) =>
  [...endpoints].sort((a, b) => a.name.localeCompare(b.name)).map(toRegistryEntry);

/** The x402 manifest: every paid agent route with its requirements and its 402's Bazaar discovery entry. */
export function toManifest(loaded: Endpoint[], gate: X402Gate, baseUrl: string) {
  const paid = agentEndpoints(loaded)
    .filter((e) => !isFree(e))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    x402Version: 2,
    name: "x402 agent services",
    baseUrl,
    count: countLine(loaded),
    payment: {
      scheme: "exact",
      options: gate.options,
      protocols: ["x402 v1 (X-PAYMENT)", "x402 v2 (PAYMENT-SIGNATURE)"],
    },
    pricing: "Per call, charged only for a 200 answer; cached answers cost the same as fresh ones.",
    resources: paid.map((e) => ({
      resource: gate.requirements(e).resource.url,
      type: "http",
      name: e.name,
      family: e.family,
      method: e.method,
      description: e.summary,
      price: e.price,
      accepts: gate.requirements(e).v2,
      extensions: { bazaar: bazaarOf(e) },
    })),
  };
}

/** `/.well-known/x402` as x402scan's DISCOVERY.md gives it: the paid resources' URLs, and guidance. */
export function toWellKnown(endpoints: Endpoint[], baseUrl: string, options: PaymentOption[] = []) {
  const paid = agentEndpoints(endpoints).filter((e) => !isFree(e));
  return {
    version: 1,
    resources: paid.map((e) => baseUrl + e.path),
    instructions:
      `${countLine(endpoints)}. OpenAPI with prices and examples: ${baseUrl}/openapi.json. MCP: ${baseUrl}/mcp. ` +
      "Call a resource; answer its 402 with an x402 payment (PAYMENT-SIGNATURE for v2, X-PAYMENT for v1). Bad input, an unknown parameter among it, is refused with 400 before any payment." +
      (options.length ? ` ${optionsLine(options)}` : ""),
  };
}

export function toLlmsTxt(loaded: Endpoint[], baseUrl: string, options: PaymentOption[] = []) {
  const endpoints = agentEndpoints(loaded);
  const lines = [
    "# x402 agent services",
    "",
    `> Pay-per-call data and tools for agents: ${countLine(endpoints)}. No account or key: every paid route answers 402 with x402 payment requirements (USDC); retry with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). Invalid input, an unknown parameter among it, gets a free 400 before any payment; failures are never charged.`,
    ...(options.length ? ["", optionsLine(options)] : []),
    "",
    `- OpenAPI (prices, schemas, an example on every parameter): ${baseUrl}/openapi.json`,
    `- x402 manifest: ${baseUrl}/x402-manifest`,
    `- Docs: ${baseUrl}/docs`,
    `- MCP (Streamable HTTP; the tool call_endpoint runs any endpoint below by name; paid tools take the x402 payment in _meta["x402/payment"]): ${baseUrl}/mcp`,
    "",
  ];
  const families = [...new Set(endpoints.map((e) => e.family))].sort();
  for (const family of families) {
    lines.push(`## ${family}`, "");
    for (const e of endpoints.filter((x) => x.family === family).sort((a, b) => a.name.localeCompare(b.name))) {
      lines.push(`- [${e.method} ${e.path}](${baseUrl}${e.path}) ${e.price}: ${e.summary}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
