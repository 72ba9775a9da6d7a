import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "h3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { buildRegistry } from "../../../core/runtime/documents.ts";
import { startTestService } from "../../helpers/service.ts";

// Every family that has flagged endpoints, so the whole tool list is loaded.
const families = ["bet", "converters", "market", "onchain", "publicdata", "swap", "web"];
let service: Awaited<ReturnType<typeof startTestService>>;
let server: ReturnType<typeof serve>;
let client: Client;

// Served on a real port: the SDK client speaks HTTP to the Node adapter, as an agent would.
before(async () => {
  // search is mounted only with a SearXNG configured; listing tools calls nothing there.
  service = await startTestService({ plugins: families, env: { UPSTREAM_SEARXNG_URL: "http://127.0.0.1:9" } });
  server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
});
after(async () => {
  await client?.close();
  await server?.close(true);
  await service?.close();
});

const text = (result: any) => JSON.parse(result.content[0].text);

test("initialize: the server names itself, offers tools and explains how paid tools are paid", () => {
  assert.equal(client.getServerVersion()?.name, "x402-agent-services");
  assert.ok(client.getServerCapabilities()?.tools);
  assert.match(client.getInstructions() ?? "", /x402\/payment/);
});

test("tools/list: the 21 flagged endpoints as paid tools, call_endpoint for the rest, plus the free catalog tools", async () => {
  const { tools } = await client.listTools();
  const flagged = buildRegistry(service.runtime.endpoints).filter((e) => e.mcp);
  assert.equal(flagged.length, 21);
  assert.equal(tools.length, 24);
  const names = tools.map((t) => t.name);
  assert.deepEqual(
    names.filter((n) => n === "search_catalog" || n === "describe_endpoint" || n === "call_endpoint").sort(),
    ["call_endpoint", "describe_endpoint", "search_catalog"],
  );
  assert.deepEqual(
    names.filter((n) => !n.endsWith("_catalog") && !n.endsWith("_endpoint")).sort(),
    flagged.map((e) => e.name.replaceAll("/", "_")).sort(),
  );
  assert.ok(names.includes("bet_odds"));
  assert.ok(names.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n)));

  const hash = tools.find((t) => t.name === "hash")!;
  assert.equal(hash.inputSchema.type, "object");
  assert.ok((hash.inputSchema.required as string[]).includes("text"));
  assert.match(hash.description!, /\$0\.001 per call/);
  assert.deepEqual(hash.annotations, { readOnlyHint: true, openWorldHint: false });
  // No output schema: structuredContent is the answer or the PaymentRequired, and describe_endpoint gives the answer's schema.
  assert.equal(hash.outputSchema, undefined);
  assert.equal(tools.find((t) => t.name === "crypto-price")!.annotations?.openWorldHint, true);
  assert.equal(tools.find((t) => t.name === "search_catalog")!.annotations?.openWorldHint, false);
});

test("search_catalog (free): matches by words and family, names the tool of a paid MCP endpoint", async () => {
  const result: any = await client.callTool({ name: "search_catalog", arguments: { query: "hash text" } });
  assert.notEqual(result.isError, true);
  const hash = result.structuredContent.results.find((r: any) => r.name === "hash");
  assert.deepEqual(hash, {
    name: "hash",
    tool: "hash",
    family: "converters",
    method: "GET",
    url: "http://127.0.0.1:4021/v1/hash",
    price: "$0.001",
    summary: hash.summary,
  });
  assert.deepEqual(text(result), result.structuredContent);

  const bet: any = await client.callTool({ name: "search_catalog", arguments: { family: "bet", limit: 50 } });
  assert.deepEqual(bet.structuredContent.results.map((r: any) => r.name).sort(), [
    "bet/odds",
    "bet/quote",
    "bet/submit",
  ]);
  assert.equal(bet.structuredContent.results.find((r: any) => r.name === "bet/odds").tool, "bet_odds");
  assert.equal(bet.structuredContent.results.find((r: any) => r.name === "bet/quote").tool, undefined);

  const none: any = await client.callTool({ name: "search_catalog", arguments: { query: "zzzz-no-such-thing" } });
  assert.deepEqual(none.structuredContent, { total: 0, results: [] });
});

test("describe_endpoint (free): price, requirements, schemas and example of any endpoint, by catalog or tool name", async () => {
  const result: any = await client.callTool({ name: "describe_endpoint", arguments: { name: "bet_odds" } });
  const d = result.structuredContent;
  assert.equal(d.name, "bet/odds");
  assert.equal(d.tool, "bet_odds");
  assert.equal(d.price, "$0.01");
  assert.equal(d.accepts[0].amount, "10000");
  assert.equal(d.input.type, "object");
  assert.ok(d.example.input);
  const quote: any = await client.callTool({ name: "describe_endpoint", arguments: { name: "/v1/bet/quote" } });
  assert.equal(quote.structuredContent.name, "bet/quote");
  assert.equal(quote.structuredContent.mcp, false);

  const missing: any = await client.callTool({ name: "describe_endpoint", arguments: { name: "nope" } });
  assert.equal(missing.isError, true);
  assert.equal(text(missing).error.code, "not_found");
  const bad: any = await client.callTool({ name: "search_catalog", arguments: { limit: 0 } });
  assert.equal(bad.isError, true);
  assert.equal(text(bad).error.details.issues[0].field, "limit");
});

test("an unpaid call answers the x402 v2 PaymentRequired as an error result, in structuredContent and text", async () => {
  const result: any = await client.callTool({ name: "hash", arguments: { text: "abc" } });
  assert.equal(result.isError, true);
  const required = result.structuredContent;
  assert.equal(required.x402Version, 2);
  assert.equal(required.resource.url, "http://127.0.0.1:4021/v1/hash");
  assert.equal(required.accepts[0].amount, "1000");
  assert.equal(required.accepts[0].network, "eip155:84532");
  // The x402 MCP convention: the text content is the PaymentRequired itself, for clients that read only the text.
  assert.deepEqual(text(result), required);
  // The same requirements as the HTTP route's 402.
  const res = await service.request("/v1/hash?text=abc");
  const header = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  assert.deepEqual(required, header);
});

test("bad input to a paid tool is refused free, with the field named, and no payment asked", async () => {
  const result: any = await client.callTool({ name: "hash", arguments: { text: "abc", algo: "crc32" } });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent, undefined);
  const body = text(result);
  assert.equal(body.error.code, "invalid_input");
  assert.equal(body.error.details.issues[0].field, "algo");
});

test("an unknown tool is a protocol error; GET /mcp is 405 (stateless, no server stream)", async () => {
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /Unknown tool no_such_tool/);
  const res = await service.request("/mcp", { headers: { accept: "text/event-stream" } });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "POST");
});

test("tools/list fits an LLM tool API: no top-level oneOf, anyOf or allOf in an input schema, under 30 KB, no operator notes", async () => {
  const { tools } = await client.listTools();
  const size = Buffer.byteLength(JSON.stringify({ tools }));
  assert.ok(size < 30_000, `tools/list is ${size} bytes`);
  for (const tool of tools) {
    for (const key of ["oneOf", "anyOf", "allOf"])
      assert.equal(key in tool.inputSchema, false, `${tool.name} has a top-level ${key}`);
    assert.doesNotMatch(
      tool.description!,
      /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
      `${tool.name} names an environment variable`,
    );
    assert.doesNotMatch(tool.description!, /\/v1\//, `${tool.name} points to a route, not a tool`);
  }
  const htmlMd = tools.find((t) => t.name === "html-md")!;
  assert.match(htmlMd.description!, /Give exactly one of: html, or url/);
  assert.match(tools.find((t) => t.name === "bet_odds")!.description!, /bet\/quote \(call_endpoint\)/);
});

test("an unknown argument is a free 400 naming it and the nearest known one, on a tool, call_endpoint and a catalog tool", async () => {
  const typo: any = await client.callTool({ name: "hash", arguments: { text: "hi", algorithm: "md5" } });
  assert.equal(typo.isError, true);
  assert.equal(typo.structuredContent, undefined);
  assert.equal(text(typo).error.details.issues[0].field, "algorithm");
  assert.match(text(typo).error.message, /did you mean "algo"/);
  const generic: any = await client.callTool({
    name: "call_endpoint",
    arguments: { name: "slugify", arguments: { text: "Hi", lang: "en" } },
  });
  assert.equal(generic.isError, true);
  assert.equal(text(generic).error.details.issues[0].field, "lang");
  const catalog: any = await client.callTool({ name: "search_catalog", arguments: { querry: "hash" } });
  assert.match(text(catalog).error.message, /did you mean "query"/);
});

test("call_endpoint: an endpoint that is not a tool answers its own PaymentRequired, priced as that endpoint", async () => {
  const slugify = service.runtime.endpoints.find((e) => e.name === "slugify")!;
  assert.equal(slugify.mcp, undefined);
  const result: any = await client.callTool({
    name: "call_endpoint",
    arguments: { name: "slugify", arguments: slugify.example.input },
  });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.resource.url, "http://127.0.0.1:4021/v1/slugify");
  assert.equal(result.structuredContent.accepts[0].amount, service.runtime.payments.requirements(slugify).amount);
  assert.deepEqual(text(result), result.structuredContent);
  const missing: any = await client.callTool({ name: "call_endpoint", arguments: { name: "slugifyy" } });
  assert.match(text(missing).error.message, /did you mean slugify/);
  const page: any = await client.callTool({ name: "call_endpoint", arguments: { name: "swap/widget-quote" } });
  assert.equal(text(page).error.code, "not_found");
});
