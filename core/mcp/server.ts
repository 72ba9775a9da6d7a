import { getRequestIP, type H3, type H3Event } from "h3";
import * as v from "valibot";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "../runtime/container.ts";
import { type ServiceError, badRequest, notFound, toErrorBody } from "../runtime/errors.ts";
import { invoke } from "../runtime/invoke.ts";
import { isFree } from "../shared.ts";
import { nearestName, toFieldIssues } from "../runtime/schema.ts";
import { agentEndpoints } from "../shared.ts";
import { compressResponse } from "../runtime/compression.ts";
import type { Endpoint } from "../endpoint.ts";
import { catalogTools, toolName, type CatalogTool } from "./catalog-tools.ts";
import { toToolResult } from "./results.ts";
import { credentialsInMeta, mcpMetaKeys } from "../rails.ts";
import { callEndpointTool, freeTool, paidTool } from "./tools.ts";

/** The SDK (and zod under it) is loaded on the first MCP request, not at boot. */
const importSdk = () =>
  Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
let sdk: ReturnType<typeof importSdk> | undefined;
const loadSdk = () => (sdk ??= importSdk());

const serverInfo = { name: "x402-agent-services", version: "1.0.0" };
const instructions = (count: number) =>
  `Pay-per-call data and tools for agents: ${count} endpoints. search_catalog and describe_endpoint are free; call_endpoint runs any endpoint by name, ` +
  "and the featured tools run one each. A paid call is paid in USDC over x402: without payment it returns the x402 PaymentRequired (isError; structuredContent, and the text), " +
  `the same call with the PaymentPayload in ${mcpMetaKeys("paymentKey")} runs and returns the settlement receipt in ${mcpMetaKeys("receiptKey")}.`;

/**
 * `POST /mcp`: a stateless Streamable HTTP MCP server (a fresh server and transport per request, JSON answers),
 * so any instance serves any call. Paid tools are one more transport into `invoke()`.
 */
export function mountMcp(app: H3, rt: Runtime): void {
  const agents = agentEndpoints(rt.endpoints);
  const paid = new Map(agents.filter((e) => e.mcp && !isFree(e)).map((e) => [toolName(e), e]));
  const toolOf = (name: string) => {
    const e = agents.find((x) => x.name === name);
    return e && paid.has(toolName(e)) ? toolName(e) : undefined;
  };
  const free = new Map(catalogTools(rt).map((t) => [t.name, t]));
  let tools: Tool[] | undefined;
  const listTools = () =>
    (tools ??= [
      ...[...paid.values()].map((e) => paidTool(e, toolOf)),
      callEndpointTool(agents.length),
      ...[...free.values()].map(freeTool),
    ]);
  const requirementsOf = (endpoint: Endpoint) => () => rt.payments.discovery.mcp.required(endpoint);

  async function run(
    event: H3Event,
    endpoint: Endpoint,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const outcome = await invoke(rt, {
      endpoint,
      input: args ?? {},
      resource: rt.config.baseUrl + endpoint.path,
      requestId: event.context.requestId as string,
      clientIp: getRequestIP(event, { xForwardedFor: rt.config.trustProxy }) ?? "unknown",
      payment: credentialsInMeta(meta),
      signal: () => signal,
    });
    // The request log records the tool, its price and payer like an HTTP call's.
    event.context.endpoint = endpoint.name;
    event.context.outcome = outcome;
    return toToolResult(outcome, requirementsOf(endpoint));
  }

  /** call_endpoint: the endpoint named in the arguments, run exactly as its own tool or route would be. */
  function callAny(
    event: H3Event,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<CallToolResult> | CallToolResult {
    const { name, arguments: input, ...rest } = (args ?? {}) as { name?: unknown; arguments?: unknown };
    const issues = [
      ...Object.keys(rest).map((k) => ({
        field: k,
        message: `Unknown parameter "${k}"; call_endpoint takes name and arguments`,
      })),
      ...(typeof name === "string" && name ? [] : [{ field: "name", message: "Give the endpoint's catalog name" }]),
      ...(input === undefined || (typeof input === "object" && input !== null && !Array.isArray(input))
        ? []
        : [{ field: "arguments", message: "Give the arguments as an object" }]),
    ];
    if (issues.length) return errorResult(badRequest("Invalid input for call_endpoint", { issues }));
    const endpoint = agents.find((e) => e.name === name || toolName(e) === name || e.path === name);
    if (!endpoint) {
      const nearest = nearestName(
        name as string,
        agents.map((e) => e.name),
      );
      return errorResult(
        notFound(`No endpoint named ${name}${nearest ? `; did you mean ${nearest}?` : ""} search_catalog lists them`),
      );
    }
    return run(event, endpoint, input ?? {}, meta, signal);
  }

  async function callTool(
    types: typeof import("@modelcontextprotocol/sdk/types.js"),
    event: H3Event,
    name: string,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const endpoint = paid.get(name);
    if (endpoint) return run(event, endpoint, args, meta, signal);
    if (name === "call_endpoint") return callAny(event, args, meta, signal);
    const tool = free.get(name);
    if (!tool) throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool ${name}`);
    return runCatalogTool(tool, args);
  }

  app.post("/mcp", async (event) => {
    event.context.endpoint = "mcp";
    const [{ Server }, { WebStandardStreamableHTTPServerTransport }, types] = await loadSdk();
    const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions: instructions(agents.length) });
    server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: listTools() }));
    server.setRequestHandler(types.CallToolRequestSchema, (request, extra) =>
      callTool(types, event, request.params.name, request.params.arguments, request.params._meta, extra.signal),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: rt.config.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await compressResponse(event.req, withCors(await transport.handleRequest(event.req as Request)));
    } finally {
      await server.close();
    }
  });
  // Stateless: no server-initiated stream to open and no session to end.
  const notAllowed = () =>
    withCors(
      new Response(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: POST JSON-RPC to /mcp" },
          id: null,
        }),
        {
          status: 405,
          headers: { allow: "POST", "content-type": "application/json" },
        },
      ),
    );
  app.get("/mcp", notAllowed);
  app.delete("/mcp", notAllowed);
}

function runCatalogTool(tool: CatalogTool, args: unknown): CallToolResult {
  const known = Object.keys(tool.input.entries);
  const unknown = Object.keys((args ?? {}) as object).filter((k) => !known.includes(k));
  if (unknown.length) {
    const issues = unknown.map((k) => ({
      field: k,
      message: `Unknown parameter "${k}"; did you mean "${nearestName(k, known)}"? Known: ${known.join(", ")}`,
    }));
    return errorResult(badRequest(`Invalid input for ${tool.name}: ${issues[0].message}`, { issues }));
  }
  const parsed = v.safeParse(tool.input, args ?? {});
  if (!parsed.success)
    return errorResult(badRequest(`Invalid input for ${tool.name}`, { issues: toFieldIssues(parsed.issues) }));
  const answer = tool.run(parsed.output);
  if (!answer.found) return errorResult(notFound(answer.message));
  return {
    content: [{ type: "text", text: JSON.stringify(answer.result) }],
    structuredContent: answer.result as Record<string, unknown>,
  };
}

const errorResult = (e: ServiceError): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify(toErrorBody(e)) }],
});

function withCors(response: Response): Response {
  response.headers.set("access-control-allow-origin", "*");
  response.headers.set("access-control-expose-headers", "mcp-session-id, mcp-protocol-version");
  return response;
}
