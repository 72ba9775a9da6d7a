import type { Endpoint } from "../endpoint.ts";
import type { PaymentGate } from "../x402/gate.ts";
import { isFree } from "./invoke.ts";
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
    upstreams: [...(e.upstreams ?? [])],
    ...(e.probes ? { probes: true } : {}),
    mcp: e.mcp === true,
    input,
    output,
    example: e.example,
  };
}

export const buildRegistry = (endpoints: Endpoint[]) =>
  [...endpoints].sort((a, b) => a.name.localeCompare(b.name)).map(toRegistryEntry);

/** The x402 manifest: every route with its requirements, schemas and a Bazaar discovery entry. */
export function toManifest(endpoints: Endpoint[], gate: PaymentGate, baseUrl: string) {
  return {
    x402Version: 2,
    name: "x402 agent services",
    baseUrl,
    payment: { scheme: "exact", options: gate.options, protocols: ["x402 v1 (X-PAYMENT)", "x402 v2 (PAYMENT-SIGNATURE)"] },
    pricing: "Per call, charged only for a 200 answer; cached answers cost the same as fresh ones.",
    resources: buildRegistry(endpoints)
      .filter((entry) => !isFree(endpoints.find((e) => e.name === entry.name)!))
      .map((entry) => {
        const endpoint = endpoints.find((e) => e.name === entry.name)!;
        const requirements = gate.requirements(endpoint);
        const input = entry.method === "GET"
          ? { type: "http", method: "GET", queryParams: entry.input }
          : { type: "http", method: "POST", bodyType: "json", body: entry.input };
        return {
          resource: requirements.resource.url,
          type: "http",
          name: entry.name,
          family: entry.family,
          method: entry.method,
          description: entry.summary,
          price: entry.price,
          accepts: requirements.v2,
          extensions: { bazaar: { info: { input, output: { type: "json", example: entry.example.output } }, schema: { input: entry.input, output: entry.output } } },
        };
      }),
  };
}

/** The compatibility shape x402scan reads: `{version, resources}` plus our own fields. */
export function toWellKnown(endpoints: Endpoint[], baseUrl: string) {
  const paid = endpoints.filter((e) => !isFree(e));
  return {
    version: 1,
    resources: paid.map((e) => baseUrl + e.path),
    openapi: `${baseUrl}/openapi.json`,
    manifest: `${baseUrl}/x402-manifest`,
    mcp: `${baseUrl}/mcp`,
    docs: `${baseUrl}/docs`,
    instructions: "Call any resource; answer its 402 with an x402 payment (X-PAYMENT for v1, PAYMENT-SIGNATURE for v2). Bad input is refused with 400 before any payment.",
  };
}

export function toLlmsTxt(endpoints: Endpoint[], baseUrl: string) {
  const lines = [
    "# x402 agent services",
    "",
    "> Pay-per-call data and tools for agents. No account or key: every paid route answers 402 with x402 payment requirements (USDC); retry with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). Invalid input gets a free 400 before any payment; failures are never charged.",
    "",
    `- OpenAPI: ${baseUrl}/openapi.json`,
    `- x402 manifest: ${baseUrl}/x402-manifest`,
    `- Docs: ${baseUrl}/docs`,
    `- MCP (Streamable HTTP; paid tools take the x402 payment in _meta["x402/payment"]): ${baseUrl}/mcp`,
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
