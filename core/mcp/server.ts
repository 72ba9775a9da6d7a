import { getRequestIP, type H3, type H3Event } from "h3";
import * as v from "valibot";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "../runtime/container.ts";
import { ServiceError, badRequest, notFound, toErrorBody } from "../runtime/errors.ts";
import { invoke, isFree } from "../runtime/invoke.ts";
import { toFieldIssues } from "../runtime/schema.ts";
import { catalogTools, toolName, type CatalogTool } from "./catalog-tools.ts";
import { credentialsOf, toToolResult } from "./results.ts";
import { freeTool, paidTool } from "./tools.ts";

/** The SDK (and zod under it) is loaded on the first MCP request, not at boot. */
const importSdk = () =>
  Promise.all([import("@modelcontextprotocol/sdk/server/index.js"), import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"), import("@modelcontextprotocol/sdk/types.js")]);
let sdk: ReturnType<typeof importSdk> | undefined;
const loadSdk = () => (sdk ??= importSdk());

const serverInfo = { name: "x402-agent-services", version: "1.0.0" };
const instructions =
  "Pay-per-call data and tools for agents. search_catalog and describe_endpoint are free; every other tool is paid in USDC over x402: " +
  'a call without payment returns the requirements (isError, structuredContent), the same call with the PaymentPayload in _meta["x402/payment"] ' +
  'runs and returns the settlement receipt in _meta["x402/payment-response"].';

/**
 * `POST /mcp`: a stateless Streamable HTTP MCP server (a fresh server and transport per request, JSON answers),
 * so any instance serves any call. Paid tools are one more transport into `invoke()`.
 */
export function mountMcp(app: H3, rt: Runtime): void {
  const paid = new Map(rt.endpoints.filter((e) => e.mcp && !isFree(e)).map((e) => [toolName(e), e]));
  const free = new Map(catalogTools(rt).map((t) => [t.name, t]));
  let tools: Tool[] | undefined;
  const listTools = () => (tools ??= [...[...paid.values()].map(paidTool), ...[...free.values()].map(freeTool)]);

  async function callTool(types: typeof import("@modelcontextprotocol/sdk/types.js"), event: H3Event, name: string, args: unknown, meta: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallToolResult> {
    const endpoint = paid.get(name);
    if (endpoint) {
      const outcome = await invoke(rt, {
        endpoint,
        input: args ?? {},
        resource: rt.config.baseUrl + endpoint.path,
        requestId: event.context.requestId as string,
        clientIp: getRequestIP(event, { xForwardedFor: rt.config.trustProxy }) ?? "unknown",
        payment: credentialsOf(meta),
        signal: () => signal,
      });
      // The request log records the tool, its price and payer like an HTTP call's.
      event.context.endpoint = endpoint.name;
      event.context.outcome = outcome;
      return toToolResult(outcome);
    }
    const tool = free.get(name);
    if (!tool) throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool ${name}`);
    return runCatalogTool(tool, args);
  }

  app.post("/mcp", async (event) => {
    event.context.endpoint = "mcp";
    const [{ Server }, { WebStandardStreamableHTTPServerTransport }, types] = await loadSdk();
    const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions });
    server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: listTools() }));
    server.setRequestHandler(types.CallToolRequestSchema, (request, extra) =>
      callTool(types, event, request.params.name, request.params.arguments, request.params._meta, extra.signal));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: rt.config.maxBodyBytes });
    await server.connect(transport);
    try {
      return withCors(await transport.handleRequest(event.req as Request));
    } finally {
      await server.close();
    }
  });
  // Stateless: no server-initiated stream to open and no session to end.
  const notAllowed = () =>
    withCors(new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST JSON-RPC to /mcp" }, id: null }), {
      status: 405,
      headers: { allow: "POST", "content-type": "application/json" },
    }));
  app.get("/mcp", notAllowed);
  app.delete("/mcp", notAllowed);
}

function runCatalogTool(tool: CatalogTool, args: unknown): CallToolResult {
  const parsed = v.safeParse(tool.input, args ?? {});
  if (!parsed.success) return errorResult(badRequest(`Invalid input for ${tool.name}`, { issues: toFieldIssues(parsed.issues) }));
  const answer = tool.run(parsed.output);
  if (!answer.found) return errorResult(notFound(answer.message));
  return { content: [{ type: "text", text: JSON.stringify(answer.result) }], structuredContent: answer.result as Record<string, unknown> };
}

const errorResult = (e: ServiceError): CallToolResult => ({ isError: true, content: [{ type: "text", text: JSON.stringify(toErrorBody(e)) }] });

function withCors(response: Response): Response {
  response.headers.set("access-control-allow-origin", "*");
  response.headers.set("access-control-expose-headers", "mcp-session-id, mcp-protocol-version");
  return response;
}
