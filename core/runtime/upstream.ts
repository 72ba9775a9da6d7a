import * as v from "valibot";
import type {
  Logger,
  RpcAnswer,
  RpcCall,
  Upstream,
  UpstreamEntry,
  UpstreamRequest,
  UpstreamTable,
} from "../endpoint.ts";
import { createBreaker, type Breaker, type BreakerOptions, type BreakerState } from "./breaker.ts";
import {
  notFound,
  RpcAnswerError,
  ServiceError,
  unavailable,
  upstreamFailed,
  upstreamInvalid,
  upstreamTimeout,
} from "./errors.ts";
import { createSingleFlight } from "./single-flight.ts";
import { checkUpstream } from "./errors.ts";
import type { CheckedTarget } from "./egress.ts";
import { exchange, type ExchangePlan, type ExchangeOutcome } from "./upstream-fetch.ts";
import { jsonOrText, lowerKeys } from "../shared.ts";

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
  /** Extra attempts for a GET (or a JSON-RPC read) after a network error, 429 or 5xx. */
  retries?: number;
  retryBaseMs?: number;
  /** Consecutive failures that open an upstream's breaker, how long it stays open; `now` for tests. */
  breaker?: BreakerOptions;
  userAgent?: string;
  log?: Logger;
  /** The egress guard's check, for redirects that leave an upstream's configured origin. */
  guard?: (url: string, signal: AbortSignal) => Promise<CheckedTarget>;
}

export interface ClientOptions {
  /** The caller's deadline; leaving early aborts the request unless other callers share it. */
  signal: AbortSignal;
  /** Called once per request, so the caller can list its sources. */
  onCall?: (name: string) => void;
}

/** One JSON-RPC answer: a result or an error. */
const RpcAnswerShape = v.pipe(
  v.looseObject({
    id: v.optional(v.unknown()),
    result: v.optional(v.unknown()),
    error: v.optional(v.looseObject({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) })),
  }),
  v.check((answer) => "result" in answer || answer.error !== undefined, "a JSON-RPC answer has a result or an error"),
);
const RpcBatchShape = v.array(RpcAnswerShape);

export function createUpstreams(options: UpstreamsOptions) {
  const {
    table,
    overrides = {},
    timeoutMs = 10_000,
    maxBytes = 5_000_000,
    retries = 2,
    retryBaseMs = 200,
    log,
  } = options;
  const userAgent = options.userAgent ?? "x402-agent-services/1.0";
  const breakerOptions = options.breaker ?? { threshold: 5, cooldownMs: 30_000 };
  const breakers = new Map<string, Breaker>();
  const flights = createSingleFlight<ExchangeOutcome>();

  function entryOf(name: string): UpstreamEntry {
    const entry = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!entry) throw new Error(`Unknown upstream "${name}"`);
    return entry;
  }

  /** The base URLs to try in order: the configured one, else the table's and its mirrors. */
  function basesOf(name: string): string[] {
    const configured = overrides[name]?.url;
    if (configured) return [configured];
    const entry = entryOf(name);
    return entry.url ? [entry.url, ...(entry.mirrors ?? [])] : [];
  }

  function missingOf(name: string): string[] {
    const { key, headerSetting } = entryOf(name);
    const upper = name.toUpperCase().replace(/-/g, "_");
    return [
      basesOf(name).length === 0 && `UPSTREAM_${upper}_URL`,
      key && !key.optional && !overrides[name]?.key && key.env,
      headerSetting && !overrides[name]?.headers?.[headerSetting.header] && headerSetting.env,
    ].filter((missing): missing is string => Boolean(missing));
  }

  function breakerOf(name: string): Breaker {
    let breaker = breakers.get(name);
    if (!breaker) breakers.set(name, (breaker = createBreaker(breakerOptions)));
    return breaker;
  }

  async function perform(plans: ExchangePlan[], signal: AbortSignal): Promise<ExchangeOutcome> {
    const breaker = breakerOf(plans[0].name);
    const waitSeconds = breaker.admit();
    if (waitSeconds > 0)
      throw unavailable(`${plans[0].name} is failing, try again later`, waitSeconds, { upstream: plans[0].name });
    let outcome: ExchangeOutcome = { kind: "unreachable" };
    for (const plan of plans) {
      outcome = await exchange(plan, signal);
      if (!isUpstreamFault(outcome)) break;
    }
    if (outcome.kind === "aborted") breaker.release();
    else if (isUpstreamFault(outcome)) breaker.failure();
    else breaker.success();
    return outcome;
  }

  async function call(
    name: string,
    path: string,
    init: UpstreamRequest & { idempotent?: boolean },
    accept: string,
    signal: AbortSignal,
  ): Promise<string> {
    const entry = entryOf(name);
    const override = overrides[name] ?? {};
    const bases = basesOf(name);
    const missing = missingOf(name);
    if (missing.length)
      throw new ServiceError(
        503,
        "not_configured",
        `This service has no ${missing.join(", ")} for ${name}, which this input needs`,
        { upstream: name },
      );
    const method = init.method ?? "GET";
    const headers: Record<string, string> = {
      "user-agent": userAgent,
      accept,
      ...lowerKeys(entry.headers),
      ...lowerKeys(override.headers),
      ...lowerKeys(init.headers),
    };
    let body: string | undefined;
    if (method === "POST") {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.body ?? {});
    }
    if (entry.key?.header && override.key)
      headers[entry.key.header.toLowerCase()] = entry.key.scheme ? `${entry.key.scheme} ${override.key}` : override.key;
    const plans = bases.map((base): ExchangePlan => {
      const url = joinUrl(base, path, init.query);
      if (entry.key?.query && override.key) url.searchParams.append(entry.key.query, override.key);
      return {
        name,
        url,
        method,
        headers,
        body,
        timeoutMs: entry.timeoutMs ?? timeoutMs,
        retries,
        retryBaseMs,
        log,
        idempotent: init.idempotent,
        maxBytes: entry.maxBytes ?? maxBytes,
        keepErrorBody: init.keepErrorBody,
        maxRedirections: entry.maxRedirections,
        guard: options.guard,
      };
    });
    const shared = method === "GET" || init.idempotent;
    const outcome = shared
      ? await flights.run(flightKey(plans[0].url, headers, body), signal, (flightSignal) =>
          perform(plans, flightSignal),
        )
      : await perform(plans, signal);
    return bodyOf(name, outcome, init, plans[0].maxBytes, signal);
  }

  return {
    /** Circuit state of every upstream called since boot (this instance). */
    circuits: () =>
      Object.fromEntries([...breakers].map(([name, b]) => [name, b.state()])) as Record<string, BreakerState>,
    client(name: string, { signal, onCall }: ClientOptions): Upstream {
      entryOf(name);
      const started = () => onCall?.(name);
      return {
        name,
        url: basesOf(name)[0] ?? "",
        async json(path: string, shapeOrInit?: v.GenericSchema | UpstreamRequest, maybeInit?: UpstreamRequest) {
          const shape = isSchema(shapeOrInit) ? shapeOrInit : undefined;
          const init = (shape ? maybeInit : (shapeOrInit as UpstreamRequest | undefined)) ?? {};
          started();
          const parsed = parseJson(name, await call(name, path, init, "application/json", signal));
          return shape ? checkUpstream(name, shape, parsed) : parsed;
        },
        text(path: string, init: UpstreamRequest = {}): Promise<string> {
          started();
          return call(name, path, init, "*/*", signal);
        },
        async rpc<T>(method: string, params: readonly unknown[] = []): Promise<T> {
          started();
          const text = await call(
            name,
            "",
            { method: "POST", body: { jsonrpc: "2.0", id: 1, method, params }, idempotent: true },
            "application/json",
            signal,
          );
          const answer = checkUpstream(name, RpcAnswerShape, parseJson(name, text));
          if (answer.error) throw new RpcAnswerError(name, method, answer.error);
          return answer.result as T;
        },
        async rpcBatch(calls: readonly RpcCall[]): Promise<RpcAnswer[]> {
          started();
          const body = calls.map((c, id) => ({ jsonrpc: "2.0", id, method: c.method, params: c.params ?? [] }));
          const text = await call(name, "", { method: "POST", body, idempotent: true }, "application/json", signal);
          const answers = checkUpstream(name, RpcBatchShape, parseJson(name, text));
          return calls.map((c, id): RpcAnswer => {
            const answer = answers.find((a) => a.id === id);
            if (!answer) throw upstreamInvalid(name, [`no answer for ${c.method} (id ${id}) in the batch`]);
            return answer.error ? { error: answer.error } : { result: answer.result };
          });
        },
      } as Upstream;
    },
    /** False when the upstream needs a key, a URL or a header setting that configuration does not give. */
    isConfigured(name: string): boolean {
      return missingOf(name).length === 0;
    },
    /** The variables configuration must set before the upstream can be called (none when it can be). */
    missing: missingOf,
    breakerState(name: string): BreakerState {
      entryOf(name);
      return breakers.get(name)?.state() ?? "closed";
    },
  };
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw upstreamFailed(name, `${name} answered invalid JSON`);
  }
}

export type Upstreams = ReturnType<typeof createUpstreams>;

function isUpstreamFault(outcome: ExchangeOutcome): boolean {
  if (outcome.kind === "response") return outcome.status === 429 || outcome.status >= 500;
  return outcome.kind === "unreachable" || outcome.kind === "timeout" || outcome.kind === "undecodable";
}

const isSchema = (x: unknown): x is v.GenericSchema =>
  typeof x === "object" && x !== null && (x as { kind?: unknown }).kind === "schema";

function bodyOf(
  name: string,
  outcome: ExchangeOutcome,
  init: UpstreamRequest,
  maxBytes: number,
  signal: AbortSignal,
): string {
  switch (outcome.kind) {
    case "response":
      if (outcome.body !== undefined) return outcome.body;
      if (outcome.status === 404 && init.notFoundAs404)
        throw notFound(`${name} has no such resource`, { upstream: name });
      if (outcome.errorBody !== undefined) {
        throw new ServiceError(502, "upstream_error", `${name} answered ${outcome.status}`, {
          upstream: name,
          status: outcome.status,
          body: jsonOrText(outcome.errorBody),
        });
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
function joinUrl(base: string, path: string, query: UpstreamRequest["query"] = {}): URL {
  const tail = path === "" || path.startsWith("/") || path.startsWith("?") ? path : `/${path}`;
  const url = new URL(base.replace(/\/+$/, "") + tail);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  if (params.size > 0) url.search = url.search ? `${url.search}&${params}` : `?${params}`;
  return url;
}

function flightKey(url: URL, headers: Record<string, string>, body = ""): string {
  return `${url.href}\n${JSON.stringify(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)))}\n${body}`;
}
