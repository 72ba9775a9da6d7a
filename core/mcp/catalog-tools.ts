import * as v from "valibot";
import type { Endpoint } from "../endpoint.ts";
import type { Runtime } from "../runtime/container.ts";
import { toRegistryEntry } from "../runtime/documents.ts";
import { isFree } from "../shared.ts";
import { agentEndpoints } from "../shared.ts";

/** MCP tool names allow `[a-zA-Z0-9_-]`: a catalog name's `/` becomes `_` (`bet/odds` -> `bet_odds`). */
export const toolName = (endpoint: Endpoint) => endpoint.name.replaceAll("/", "_");

const Summary = v.object({
  name: v.pipe(v.string(), v.description("Catalog name")),
  tool: v.optional(
    v.pipe(
      v.string(),
      v.description("The MCP tool that runs it here, when it is one; every endpoint is also an HTTP route"),
    ),
  ),
  family: v.string(),
  method: v.picklist(["GET", "POST"]),
  url: v.pipe(v.string(), v.description("The HTTP route")),
  price: v.pipe(v.string(), v.description("USD per call, paid in USDC over x402; $0 is free")),
  summary: v.string(),
});

const SearchOutput = v.object({
  total: v.pipe(v.number(), v.description("How many endpoints matched, before the limit")),
  results: v.array(Summary),
});

const DescribeInput = v.object({
  name: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(100),
    v.description("A catalog name (bet/odds), a tool name (bet_odds) or a route path (/v1/bet/odds)"),
  ),
});

const JsonSchemaObject = v.record(v.string(), v.unknown());
const DescribeOutput = v.object({
  name: v.string(),
  family: v.string(),
  method: v.picklist(["GET", "POST"]),
  path: v.string(),
  url: v.string(),
  price: v.string(),
  summary: v.string(),
  description: v.optional(v.string()),
  cacheTtl: v.optional(v.pipe(v.number(), v.description("Seconds an answer is cached"))),
  upstreams: v.array(v.string()),
  probes: v.optional(v.boolean()),
  mcp: v.pipe(v.boolean(), v.description("Offered as a paid MCP tool")),
  tool: v.optional(v.string()),
  input: v.pipe(
    JsonSchemaObject,
    v.description("JSON Schema of the input: query parameters of a GET, the body of a POST, the tool's arguments"),
  ),
  output: v.pipe(JsonSchemaObject, v.description("JSON Schema of `data` in the answer's {meta, data} envelope")),
  example: v.object({ input: v.unknown(), output: v.unknown() }),
  accepts: v.pipe(
    v.array(JsonSchemaObject),
    v.description("x402 v2 payment requirements of one call; empty for a free route"),
  ),
});

export type CatalogTool = {
  name: string;
  description: string;
  input: v.ObjectSchema<v.ObjectEntries, undefined>;
  output: v.GenericSchema;
  run(input: any): { found: true; result: unknown } | { found: false; message: string };
};

/** The free tools: find endpoints and describe any of them with its price, from the loaded endpoints. */
export function catalogTools(rt: Runtime): CatalogTool[] {
  const endpoints = agentEndpoints(rt.endpoints).sort((a, b) => a.name.localeCompare(b.name));
  const families = [...new Set(endpoints.map((e) => e.family))].sort() as [string, ...string[]];
  const url = (e: Endpoint) => rt.config.baseUrl + e.path;
  const tool = (e: Endpoint) => (e.mcp && !isFree(e) ? { tool: toolName(e) } : {});
  const summary = (e: Endpoint) => ({
    name: e.name,
    ...tool(e),
    family: e.family,
    method: e.method,
    url: url(e),
    price: e.price,
    summary: e.summary,
  });

  const SearchInput = v.object({
    query: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200),
        v.description("Words to find in names, summaries and descriptions (all must match); empty lists everything"),
      ),
      "",
    ),
    family: v.optional(
      v.pipe(families.length ? v.picklist(families) : v.string(), v.description("Only endpoints of this family")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Results at most, best first")),
      20,
    ),
  });

  return [
    {
      name: "search_catalog",
      description:
        "Free. Search the catalog of pay-per-call endpoints: name, family, HTTP route, price and summary of each match, and its own tool when it has one (any of them runs through call_endpoint).",
      input: SearchInput,
      output: SearchOutput,
      run({ query, family, limit }: v.InferOutput<typeof SearchInput>) {
        const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
        const scored = endpoints
          .filter((e) => !family || e.family === family)
          .map((e) => ({ e, score: relevance(e, terms) }))
          .filter((x) => x.score > 0)
          .sort((a, b) => b.score - a.score || a.e.name.localeCompare(b.e.name));
        return {
          found: true,
          result: { total: scored.length, results: scored.slice(0, limit).map((x) => summary(x.e)) },
        };
      },
    },
    {
      name: "describe_endpoint",
      description:
        "Free. Describe one endpoint: price and x402 payment requirements, method and route, input and output JSON Schema, and a real example.",
      input: DescribeInput,
      output: DescribeOutput,
      run({ name }: v.InferOutput<typeof DescribeInput>) {
        const e = endpoints.find((x) => x.name === name || toolName(x) === name || x.path === name);
        if (!e) return { found: false, message: `No endpoint named ${name}; search_catalog lists them` };
        const accepts = isFree(e) ? [] : rt.payments.discovery.mcp.accepts(e);
        return { found: true, result: { ...toRegistryEntry(e), url: url(e), ...tool(e), accepts } };
      },
    },
  ];
}

/** Every term must appear somewhere; a hit in the name counts most, then the summary, then the rest. */
function relevance(e: Endpoint, terms: string[]): number {
  if (!terms.length) return 1;
  const fields: [string, number][] = [
    [e.name.toLowerCase(), 4],
    [e.family, 2],
    [e.summary.toLowerCase(), 2],
    [(e.description ?? "").toLowerCase(), 1],
  ];
  let score = 0;
  for (const term of terms) {
    const hit = fields.reduce((sum, [text, weight]) => sum + (text.includes(term) ? weight : 0), 0);
    if (!hit) return 0;
    score += hit;
  }
  return score;
}
