import { H3, getRequestIP, handleCors, type H3Event } from "h3";
import type { Endpoint } from "../endpoint.ts";
import type { Runtime } from "./container.ts";
import { invoke, type Outcome } from "./invoke.ts";
import { coerceQuery } from "./schema.ts";
import { ServiceError, notFound, toErrorBody } from "./errors.ts";
import { mountDiscovery } from "./discovery.ts";
import { mountPages } from "./pages.ts";
import { mountMcp } from "../mcp/server.ts";

export const paymentRequestHeaders = ["payment-signature", "x-payment", "x-credit-code", "access-control-expose-headers"];
export const paymentResponseHeaders = ["payment-required", "payment-response", "x-payment-response", "x-payment-requirements", "retry-after", "x-request-id"];

const cors = {
  origin: "*" as const,
  methods: ["GET", "POST", "OPTIONS"],
  allowHeaders: ["content-type", ...paymentRequestHeaders, "mcp-protocol-version", "mcp-session-id"],
  exposeHeaders: paymentResponseHeaders,
  maxAge: "86400",
};

export interface AppExtras {
  /** Extra routes (health, batch, MCP, pages) mounted before the catch-all. */
  mount?: (app: H3, rt: Runtime) => void;
}

/** The HTTP adapter: turns requests into calls and outcomes into responses. Nothing else lives here. */
export function createApp(rt: Runtime, extras: AppExtras = {}): H3 {
  const app = new H3({
    onError: (error, event) => replyResponse(event, fail(error.cause instanceof ServiceError ? error.cause : fromH3(error))),
    onResponse: (response, event) => logRequest(rt, event, response),
  });
  app.use((event) => {
    event.context.started = performance.now();
    event.context.requestId = event.req.headers.get("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    if (event.req.method === "OPTIONS") {
      const preflight = handleCors(event, cors);
      if (preflight !== false) return preflight;
    }
  });
  for (const endpoint of rt.endpoints) {
    const handle = async (event: H3Event) => reply(event, await invoke(rt, await toCall(rt, event, endpoint)));
    app.on(endpoint.method, endpoint.path, handle);
    if (endpoint.acceptsBody && endpoint.method === "GET") app.on("POST", endpoint.path, handle);
  }
  mountDiscovery(app, rt);
  mountPages(app, rt);
  mountMcp(app, rt);
  extras.mount?.(app, rt);
  app.all("/**", (event) => {
    const path = event.url.pathname;
    const allowed = rt.endpoints.filter((e) => e.path === path).map((e) => e.method);
    if (allowed.length) {
      return reply(event, fail(new ServiceError(405, "method_not_allowed", `${path} answers ${allowed.join(", ")}`, undefined, { allow: allowed.join(", ") })));
    }
    return reply(event, fail(notFound(`No route ${event.req.method} ${path}`)));
  });
  return app;
}

async function toCall(rt: Runtime, event: H3Event, endpoint: Endpoint) {
  const headers = event.req.headers;
  event.context.endpoint = endpoint.name;
  return {
    endpoint,
    input: event.req.method === "GET" ? coerceQuery(endpoint, event.url.searchParams) : await readPostInput(event, endpoint, rt.config.maxBodyBytes),
    resource: rt.config.baseUrl + endpoint.path,
    requestId: event.context.requestId as string,
    clientIp: getRequestIP(event, { xForwardedFor: rt.config.trustProxy }) ?? "unknown",
    headers,
    payment: {
      signature: headers.get("payment-signature") ?? undefined,
      xPayment: headers.get("x-payment") ?? undefined,
      creditCode: headers.get("x-credit-code") ?? undefined,
    },
    // Lazy: the server makes an AbortController only for calls that get as far as a handler.
    get signal() {
      return event.req.signal;
    },
  };
}

/** A POST's fields come from its JSON body; fields in the query string count too, the body winning (simulate-tx takes either). */
async function readPostInput(event: H3Event, endpoint: Endpoint, maxBytes: number): Promise<unknown> {
  const body = await readJson(event, maxBytes);
  if (!event.url.search || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return { ...coerceQuery(endpoint, event.url.searchParams), ...body };
}

export async function readJson(event: H3Event, maxBytes: number): Promise<unknown> {
  const declared = Number(event.req.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw new ServiceError(413, "body_too_large", `The body may be at most ${maxBytes} bytes`);
  const text = await event.req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new ServiceError(413, "body_too_large", `The body may be at most ${maxBytes} bytes`);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(400, "invalid_json", "The body is not valid JSON");
  }
}

/**
 * Writes an outcome on h3's prepared response and returns the body as a string, so h3 sends it in one
 * write with a Content-Length (a Response object here would be streamed, chunked, at half the speed).
 */
export function reply(event: H3Event, outcome: Outcome): string {
  event.context.outcome = outcome;
  event.res.status = outcome.status;
  const headers = event.res.headers;
  for (const [k, v] of Object.entries(outcome.headers)) headers.set(k, v);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-request-id", event.context.requestId as string);
  for (const [k, v] of Object.entries(corsHeaders)) headers.set(k, v);
  return JSON.stringify(outcome.body);
}

/** The same as a Response, for h3's error hook, which does not read prepared headers. */
function replyResponse(event: H3Event, outcome: Outcome): Response {
  event.context.outcome = outcome;
  const headers = new Headers(outcome.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-request-id", (event.context.requestId as string) ?? "");
  for (const [k, v] of Object.entries(corsHeaders)) headers.set(k, v);
  return new Response(JSON.stringify(outcome.body), { status: outcome.status, headers });
}

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": paymentResponseHeaders.join(", "),
};

const fail = (e: ServiceError): Outcome => ({ status: e.status, body: toErrorBody(e), headers: e.headers });

function fromH3(error: { status?: number; message?: string }): ServiceError {
  const status = error.status ?? 500;
  if (status === 404) return notFound();
  if (status < 500) return new ServiceError(status, "bad_request", error.message ?? "Bad request");
  return new ServiceError(500, "internal_error", "Internal error");
}

function logRequest(rt: Runtime, event: H3Event, response: Response) {
  const outcome = event.context.outcome as Outcome | undefined;
  rt.log.info({
    reqId: event.context.requestId,
    method: event.req.method,
    path: event.url.pathname,
    endpoint: event.context.endpoint,
    status: response.status,
    ms: Math.round((performance.now() - (event.context.started as number)) * 10) / 10,
    price: outcome?.charged,
    payer: outcome?.payer,
  }, "request");
}
