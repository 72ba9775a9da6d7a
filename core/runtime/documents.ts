import type { Endpoint } from "../endpoint.ts";
import type { PaymentGate } from "../payment/gate.ts";
import { countLine } from "./agent-surface.ts";
import { agentEndpoints } from "../shared.ts";
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

/** llms.txt: the catalog by family, with how it is paid and where the documents are, the rails' own among them. */
export function toLlmsTxt(
  loaded: Endpoint[],
  baseUrl: string,
  { options, discovery }: Pick<PaymentGate, "options" | "discovery">,
  mcpPaymentKeys: string,
) {
  const endpoints = agentEndpoints(loaded);
  const lines = [
    "# x402 agent services",
    "",
    `> Pay-per-call data and tools for agents: ${countLine(endpoints)}. No account or key: every paid route answers 402 with x402 payment requirements (USDC); retry with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). Invalid input, an unknown parameter among it, gets a free 400 before any payment; failures are never charged.`,
    ...(options.length ? ["", discovery.optionsLine] : []),
    "",
    `- OpenAPI (prices, schemas, an example on every parameter): ${baseUrl}/openapi.json`,
    ...discovery.documents.flatMap((d) => (d.label ? [`- ${d.label}: ${baseUrl}${d.path}`] : [])),
    `- Docs: ${baseUrl}/docs`,
    `- MCP (Streamable HTTP; the tool call_endpoint runs any endpoint below by name; paid tools take the x402 payment in ${mcpPaymentKeys}): ${baseUrl}/mcp`,
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
