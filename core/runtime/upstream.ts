import * as v from "valibot";
import type { Logger, Upstream, UpstreamRequest } from "../endpoint.ts";
import { createBreaker, type Breaker, type BreakerState } from "./breaker.ts";
import { notFound, ServiceError, unavailable, upstreamFailed, upstreamTimeout } from "./errors.ts";
import { createSingleFlight } from "./single-flight.ts";
import { checkUpstream } from "./upstream-shape.ts";
import type { CheckedTarget } from "./egress.ts";
import { exchange, type ExchangePlan, type Outcome } from "./upstream-fetch.ts";
import type { UpstreamEntry, UpstreamTable } from "./upstreams.ts";

/** What configuration may change about one upstream. */
export interface UpstreamOverride {
  url?: string;
  /** The API key; injected as the table says (header or query), never logged. */
  key?: string;
  headers?: Record<string, string>;
}

export interface UpstreamsOptions {
  table: UpstreamTable;
  overrides?: Record<string, UpstreamOverride>;
  /** Per attempt. */
  timeoutMs?: number;
  /** Response size cap, unless the table sets one for the upstream. */
  maxBytes?: number;
  /** Extra attempts for a GET after a network error, 429 or 5xx. */
  retries?: number;
  retryBaseMs?: number;
  breaker?: { threshold: number; cooldownMs: number };
  userAgent?: string;
  log?: Logger;
  /** The egress guard's check, for redirects that leave an upstream's configured origin. */
  guard?: (url: string, signal: AbortSignal) => Promise<CheckedTarget>;
}

export interface UpstreamCall extends UpstreamRequest {
  /** Turn an upstream 404 into our 404 `not_found` instead of a 502 (for lookups by id). */
  notFoundAs404?: boolean;
}

export interface UpstreamClient extends Upstream {
  json<S extends v.GenericSchema>(path: string, shape: S, init?: UpstreamCall): Promise<v.InferOutput<S>>;
  /** @deprecated unchecked; pass the shape the code reads. */
  json<T = unknown>(path: string, init?: UpstreamCall): Promise<T>;
  text(path: string, init?: UpstreamCall): Promise<string>;
}

export interface ClientOptions {
  /** The caller's deadline; leaving early aborts the request unless other callers share it. */
  signal: AbortSignal;
  /** Called once per request, so the caller can list its sources. */
  onCall?: (name: string) => void;
}

export function createUpstreams(options: UpstreamsOptions) {
  const { table, overrides = {}, timeoutMs = 10_000, maxBytes = 5_000_000, retries = 2, retryBaseMs = 200, log } = options;
  const userAgent = options.userAgent ?? "x402-agent-services/1.0";
  const breakerOptions = options.breaker ?? { threshold: 5, cooldownMs: 30_000 };
  const breakers = new Map<string, Breaker>();
  const flights = createSingleFlight<Outcome>();

  function entryOf(name: string): UpstreamEntry {
    const entry = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!entry) throw new Error(`Unknown upstream "${name}"`);
    return entry;
  }

  function breakerOf(name: string): Breaker {
    let breaker = breakers.get(name);
    if (!breaker) breakers.set(name, (breaker = createBreaker(breakerOptions)));
    return breaker;
  }

  async function perform(plan: ExchangePlan, signal: AbortSignal): Promise<Outcome> {
    const breaker = breakerOf(plan.name);
    const waitSeconds = breaker.admit();
    if (waitSeconds > 0) throw unavailable(`${plan.name} is failing, try again later`, waitSeconds, { upstream: plan.name });
    const outcome = await exchange(plan, signal);
    if (outcome.kind === "aborted") breaker.release();
    else if (isUpstreamFault(outcome)) breaker.failure();
    else breaker.success();
    return outcome;
  }

  async function call(name: string, path: string, init: UpstreamCall, accept: string, signal: AbortSignal): Promise<string> {
    const entry = entryOf(name);
    const override = overrides[name] ?? {};
    const method = init.method ?? "GET";
    const url = joinUrl(override.url ?? entry.url, path, init.query);
    const headers: Record<string, string> = { "user-agent": userAgent, accept, ...lower(entry.headers), ...lower(override.headers), ...lower(init.headers) };
    let body: string | undefined;
    if (method === "POST") {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.body ?? {});
    }
    if (entry.key && override.key) {
      if (entry.key.query) url.searchParams.append(entry.key.query, override.key);
      if (entry.key.header) headers[entry.key.header.toLowerCase()] = override.key;
    }
    const plan: ExchangePlan = {
      name, url, method, headers, body, timeoutMs: entry.timeoutMs ?? timeoutMs, retries, retryBaseMs, log,
      maxBytes: entry.maxBytes ?? maxBytes,
      keepErrorBody: init.keepErrorBody,
      maxRedirections: entry.maxRedirections,
      guard: options.guard,
    };
    const outcome =
      method === "GET"
        ? await flights.run(flightKey(url, headers), signal, (shared) => perform(plan, shared))
        : await perform(plan, signal);
    return bodyOf(name, outcome, init, plan.maxBytes, signal);
  }

  return {
    /** Circuit state of every upstream called since boot (this instance). */
    circuits: () => Object.fromEntries([...breakers].map(([name, b]) => [name, b.state()])) as Record<string, BreakerState>,
    client(name: string, { signal, onCall }: ClientOptions): UpstreamClient {
      const entry = entryOf(name);
      const started = () => onCall?.(name);
      return {
        url: overrides[name]?.url ?? entry.url,
        async json(path: string, shapeOrInit?: v.GenericSchema | UpstreamCall, maybeInit?: UpstreamCall) {
          const shape = isSchema(shapeOrInit) ? shapeOrInit : undefined;
          const init = (shape ? maybeInit : (shapeOrInit as UpstreamCall | undefined)) ?? {};
          started();
          const text = await call(name, path, init, "application/json", signal);
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            throw upstreamFailed(name, `${name} answered invalid JSON`);
          }
          return shape ? checkUpstream(name, shape, parsed) : parsed;
        },
        text(path: string, init: UpstreamCall = {}): Promise<string> {
          started();
          return call(name, path, init, "*/*", signal);
        },
      };
    },
    /** False when the upstream needs a key that configuration does not give. */
    isConfigured(name: string): boolean {
      const key = entryOf(name).key;
      return !key || key.optional === true || Boolean(overrides[name]?.key);
    },
    breakerState(name: string): BreakerState {
      entryOf(name);
      return breakers.get(name)?.state() ?? "closed";
    },
  };
}

export type Upstreams = ReturnType<typeof createUpstreams>;

function isUpstreamFault(outcome: Outcome): boolean {
  if (outcome.kind === "response") return outcome.status === 429 || outcome.status >= 500;
  return outcome.kind === "unreachable" || outcome.kind === "timeout" || outcome.kind === "undecodable";
}

const isSchema = (x: unknown): x is v.GenericSchema => typeof x === "object" && x !== null && (x as { kind?: unknown }).kind === "schema";

function bodyOf(name: string, outcome: Outcome, init: UpstreamCall, maxBytes: number, signal: AbortSignal): string {
  switch (outcome.kind) {
    case "response":
      if (outcome.body !== undefined) return outcome.body;
      if (outcome.status === 404 && init.notFoundAs404) throw notFound(`${name} has no such resource`, { upstream: name });
      if (outcome.errorBody !== undefined) {
        throw new ServiceError(502, "upstream_error", `${name} answered ${outcome.status}`, { upstream: name, status: outcome.status, body: parsedOrText(outcome.errorBody) });
      }
      throw upstreamFailed(name, `${name} answered ${outcome.status}`);
    case "unreachable":
      throw upstreamFailed(name, `${name} could not be reached`);
    case "timeout":
      throw upstreamTimeout(name);
    case "too-large":
      throw upstreamFailed(name, `${name} answered more than ${maxBytes} bytes`);
    case "undecodable":
      throw upstreamFailed(name, `${name} answered a body that does not match its Content-Encoding`);
    case "redirect-refused":
      throw upstreamFailed(name, `${name} redirected to a target the egress guard refuses`);
    case "aborted":
      throw signal.reason ?? new DOMException("The call was aborted", "AbortError");
  }
}

/** Appends the path to the base URL's path and the query to any query the path already has. */
function joinUrl(base: string, path: string, query: UpstreamCall["query"] = {}): URL {
  const tail = path === "" || path.startsWith("/") || path.startsWith("?") ? path : `/${path}`;
  const url = new URL(base.replace(/\/+$/, "") + tail);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  if (params.size > 0) url.search = url.search ? `${url.search}&${params}` : `?${params}`;
  return url;
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function lower(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function flightKey(url: URL, headers: Record<string, string>): string {
  return `${url.href}\n${JSON.stringify(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)))}`;
}
