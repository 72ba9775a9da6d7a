import { H3, getRequestIP, handleCors, type H3Event } from "h3";
import { FastResponse } from "srvx";
import type { Endpoint } from "../endpoint.ts";
import type { Runtime } from "./container.ts";
import { readCapped } from "./read-capped.ts";
import { invoke } from "./invoke.ts";
import type { Call, Outcome } from "./call.ts";
import { coerceQuery } from "./schema.ts";
import { ServiceError, notFound, toErrorBody, toServiceError } from "./errors.ts";
import { mountDiscovery } from "./discovery.ts";
import { mountPages } from "./pages.ts";
import { metrics, mountMetrics, routeOf } from "./prometheus.ts";
import { mountStatus } from "./status.ts";
import { createReadiness, mountReadiness, storeProbe, type Probe } from "./readiness.ts";
import { mountMcp } from "../mcp/server.ts";
import { mountDidDocument } from "../receipts/did-route.ts";
import { credentialsIn, paymentRequestHeaders, paymentResponseHeaders } from "../rails.ts";
import { compress, compressFrom, compressSync, preferredEncoding, type Bytes, type Encoding } from "./compression.ts";

const requestHeaders = [...paymentRequestHeaders, "access-control-expose-headers"];
export const responseHeaders = [...paymentResponseHeaders, "retry-after", "x-request-id"];

const cors = {
  origin: "*" as const,
  methods: ["GET", "POST", "OPTIONS"],
  allowHeaders: ["content-type", ...requestHeaders, "mcp-protocol-version", "mcp-session-id"],
  exposeHeaders: responseHeaders,
  maxAge: "86400",
};

export interface AppExtras {
  /** What `GET /ready` checks beside the store: each part the paid path needs (the payment chain, a facilitator). */
  probes?: Record<string, Probe>;
}

/** The HTTP adapter: turns requests into calls and outcomes into responses. Nothing else lives here. */
export function createApp(rt: Runtime, extras: AppExtras = {}): H3 {
  const app = new H3({
    // h3 would print unexpected errors to the console; they go to the service's log instead.
    silent: true,
    onError(error, event) {
      const e = error.cause instanceof ServiceError ? error.cause : fromH3(error);
      if (e.status >= 500)
        rt.log.error(
          { err: error.cause ?? error, reqId: event.context.requestId, path: event.url.pathname },
          "request failed",
        );
      const response = reply(event, fail(e));
      return response instanceof Promise
        ? response.then((value) => logged(rt, event, value))
        : logged(rt, event, response);
    },
  });
  // The request line is written here rather than in h3's onResponse hook, whose three promise turns per
  // request cost the 402 path 15-35% of its throughput (bench/findings.md).
  app.use((event, next) => {
    event.context.started = performance.now();
    event.context.requestId = event.req.headers.get("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    if (event.req.method === "OPTIONS") {
      const preflight = handleCors(event, cors);
      if (preflight !== false) return logged(rt, event, preflight);
    }
    const result = next();
    return result instanceof Promise ? result.then((value) => logged(rt, event, value)) : logged(rt, event, result);
  });
  for (const endpoint of rt.endpoints) {
    // No await on the way to invoke(): a GET's 402 or 400 is answered inside the request event.
    const handle = (event: H3Event) => {
      const answer = (outcome: Outcome) => reply(event, outcome);
      const refuse = (error: unknown) => reply(event, fail(toServiceError(error)));
      if (event.req.method !== "GET") {
        return readPostInput(event, endpoint, rt.config.maxBodyBytes)
          .then((input) => invoke(rt, toCall(rt, event, endpoint, input)))
          .then(answer, refuse);
      }
      let input: unknown;
      try {
        input = coerceQuery(endpoint, event.url.searchParams);
      } catch (error) {
        return refuse(error);
      }
      const outcome = invoke(rt, toCall(rt, event, endpoint, input));
      return outcome instanceof Promise ? outcome.then(answer) : answer(outcome);
    };
    app.on(endpoint.method, endpoint.path, handle);
    if (endpoint.acceptsBody && endpoint.method === "GET") app.on("POST", endpoint.path, handle);
  }
  mountDiscovery(app, rt);
  mountPages(app, rt);
  mountMetrics(app, rt);
  mountStatus(app, rt);
  mountDidDocument(app, rt);
  mountMcp(app, rt);
  const probes = { store: storeProbe(rt.store), ...extras.probes };
  mountReadiness(app, createReadiness({ probes, draining: () => rt.inflight.draining }));
  app.all("/**", (event) => {
    const path = event.url.pathname;
    const allowed = rt.endpoints.filter((e) => e.path === path).map((e) => e.method);
    if (allowed.length) {
      return reply(
        event,
        fail(
          new ServiceError(405, "method_not_allowed", `${path} answers ${allowed.join(", ")}`, undefined, {
            allow: allowed.join(", "),
          }),
        ),
      );
    }
    return reply(event, fail(notFound(`No route ${event.req.method} ${path}`)));
  });
  return app;
}

function toCall(rt: Runtime, event: H3Event, endpoint: Endpoint, input: unknown): Call {
  const headers = event.req.headers;
  event.context.endpoint = endpoint.name;
  return {
    endpoint,
    input,
    resource: rt.config.baseUrl + endpoint.path,
    requestId: event.context.requestId as string,
    clientIp: getRequestIP(event, { xForwardedFor: rt.config.trustProxy }) ?? "unknown",
    headers,
    payment: credentialsIn(headers),
    // A function, not a getter: with a getter on this object the 402 path measured 30% slower, though
    // the getter was never called (bench/findings.md).
    signal: () => event.req.signal,
  };
}

/** A POST's fields come from its JSON body; fields in the query string count too, the body winning (simulate-tx takes either). */
async function readPostInput(event: H3Event, endpoint: Endpoint, maxBytes: number): Promise<unknown> {
  const body = await readJson(event, maxBytes);
  if (!event.url.search || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return { ...coerceQuery(endpoint, event.url.searchParams), ...body };
}

export async function readJson(event: H3Event, maxBytes: number): Promise<unknown> {
  const text = await readText(event, maxBytes);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(400, "invalid_json", "The body is not valid JSON");
  }
}

/**
 * The body as it arrives, refused at `maxBytes` whether its length was declared or it came chunked: past the
 * limit nothing more is kept, so a huge body never sits in memory. What still comes is read and dropped while the
 * 413 goes out and the connection lingers (listen.ts): closing on unread bytes would reset it, and the reset
 * would take the 413 with it.
 */
async function readText(event: H3Event, maxBytes: number): Promise<string> {
  if (Number(event.req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge(maxBytes);
  const body = event.req.body;
  if (!body) return "";
  // Node's web streams are async iterable; the DOM typings in use do not say so.
  const chunks = (body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const read = await readCapped({ [Symbol.asyncIterator]: () => ({ next: () => chunks.next() }) }, maxBytes);
  if (!read) {
    void dropRest(chunks);
    throw tooLarge(maxBytes);
  }
  return read.toString("utf8");
}

async function dropRest(chunks: AsyncIterator<Uint8Array>) {
  try {
    while (!(await chunks.next()).done);
  } catch {
    // The connection was closed: nothing more comes.
  }
}

const tooLarge = (maxBytes: number) =>
  new ServiceError(413, "body_too_large", `The body may be at most ${maxBytes} bytes`, undefined, {
    connection: "close",
  });

/**
 * An outcome as a response with its headers as a plain list, so neither h3 nor srvx builds a `Headers`
 * and the body goes out in one write with a Content-Length. A frozen outcome is one answered again and
 * again (a route's 402 challenge): it is serialized, and compressed for each encoding asked, once. A body
 * over `compressFrom` bytes goes compressed to a client that accepts it; the headers stay as they are.
 */
export function reply(event: H3Event, outcome: Outcome): Response | Promise<Response> {
  event.context.outcome = outcome;
  const plain = rendered(outcome);
  const encoding =
    plain.body.length >= compressFrom ? preferredEncoding(event.req.headers.get("accept-encoding")) : undefined;
  if (!encoding) return respond(event, outcome, plain);
  const known = plain.encoded?.[encoding];
  if (known) return respond(event, outcome, known);
  if (plain.encoded) {
    const once = (plain.encoded[encoding] = encodedRendering(plain, encoding, compressSync(plain.body, encoding)));
    return respond(event, outcome, once);
  }
  return compress(plain.body, encoding, "fast").then((bytes) =>
    respond(event, outcome, encodedRendering(plain, encoding, bytes)),
  );
}

interface Rendering {
  body: Bytes;
  headers: [string, string][];
  /** A frozen outcome's compressed renderings, made on first demand. */
  encoded?: Partial<Record<Encoding, Rendering>>;
}

const respond = (event: H3Event, outcome: Outcome, r: Rendering) =>
  new FastResponse(r.body, {
    status: outcome.status,
    headers: [...r.headers, ["x-request-id", event.context.requestId as string]],
  });

const encodedRendering = (plain: Rendering, encoding: Encoding, body: Bytes): Rendering => ({
  body,
  headers: [
    ...plain.headers.filter(([name]) => name !== "content-length"),
    ["content-encoding", encoding],
    ["content-length", String(body.length)],
  ],
});

const renderings = new WeakMap<Outcome, Rendering>();

function rendered(outcome: Outcome): Rendering {
  let r = renderings.get(outcome);
  if (!r) {
    const body = Buffer.from(JSON.stringify(outcome.body));
    const headers = {
      ...outcome.headers,
      ...corsHeaders,
      "content-type": "application/json; charset=utf-8",
      "content-length": String(body.length),
      ...(body.length >= compressFrom ? { vary: "accept-encoding" } : {}),
    };
    r = { body, headers: Object.entries(headers) };
    if (Object.isFrozen(outcome)) renderings.set(outcome, Object.assign(r, { encoded: {} }));
  }
  return r;
}

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": responseHeaders.join(", "),
};

const fail = (e: ServiceError): Outcome => ({ status: e.status, body: toErrorBody(e), headers: e.headers });

function fromH3(error: { status?: number; message?: string }): ServiceError {
  const status = error.status ?? 500;
  if (status === 404) return notFound();
  if (status < 500) return new ServiceError(status, "bad_request", error.message ?? "Bad request");
  return new ServiceError(500, "internal_error", "Internal error");
}

/** One line per request, once its answer is known; a thrown error is logged by the error hook instead. */
function logged<T>(rt: Runtime, event: H3Event, value: T): T {
  const status = value instanceof Response ? value.status : (event.res.status ?? 200);
  metrics.requests.inc({ route: routeOf(event.context), status });
  if (!rt.log.isLevelEnabled("info")) return value;
  const outcome = event.context.outcome as Outcome | undefined;
  rt.log.info(
    {
      reqId: event.context.requestId,
      method: event.req.method,
      path: event.url.pathname,
      endpoint: event.context.endpoint,
      status,
      ms: Math.round((performance.now() - (event.context.started as number)) * 10) / 10,
      price: outcome?.charged,
      payer: outcome?.payer,
    },
    "request",
  );
  return value;
}
