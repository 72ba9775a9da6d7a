import { setTimeout as sleep } from "node:timers/promises";
import { request, type Agent, type Dispatcher } from "undici";
import type { Logger } from "../endpoint.ts";
import { pinnedAgent, type CheckedTarget } from "./egress.ts";
import { discard, isDecodeError, readBody } from "./read-capped.ts";
import { metrics } from "./prometheus.ts";
import { lastHour } from "./rolling.ts";
import { tracing } from "./tracing.ts";

export interface ExchangePlan {
  name: string;
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  retries: number;
  retryBaseMs: number;
  log?: Logger;
  /** A POST that may be sent again (a JSON-RPC read): retried like a GET. */
  idempotent?: boolean;
  /** Read a 4xx answer's body (capped) instead of discarding it. */
  keepErrorBody?: boolean;
  maxRedirections?: number;
  /** Checks a redirect's target outside the configured origin (the egress guard's check). */
  guard?: (url: string, signal: AbortSignal) => Promise<CheckedTarget>;
}

/** How one exchange with an upstream ended, after any retries. */
export type ExchangeOutcome =
  | { kind: "response"; status: number; body?: string; errorBody?: string }
  | { kind: "unreachable" }
  | { kind: "timeout" }
  | { kind: "too-large" }
  /** A Content-Encoding the body does not match (a truncated or forged gzip). */
  | { kind: "undecodable" }
  | { kind: "redirect-refused"; location: string }
  | { kind: "aborted" };

/** Longest Retry-After we wait for; an upstream asking for more is not retried. */
const maxRetryAfterMs = 2_000;

/**
 * One exchange with an upstream, retries included: counted by outcome, timed, and traced as a child of the span
 * that asked for it (the upstream gets its `traceparent`).
 */
export async function exchange(plan: ExchangePlan, signal: AbortSignal): Promise<ExchangeOutcome> {
  const started = performance.now();
  const span = tracing.tracer?.start(
    `upstream ${plan.name}`,
    { "upstream.name": plan.name, "http.request.method": plan.method, "server.address": plan.url.host },
    { kind: "client" },
  );
  const sent = span ? { ...plan, headers: { ...plan.headers, traceparent: span.traceparent() } } : plan;
  const outcome = await withRetries(sent, signal);
  const ms = performance.now() - started;
  const label = labelOf(outcome);
  const failed = !["ok", "client_error", "aborted"].includes(label);
  metrics.upstreamRequests.inc({ upstream: plan.name, outcome: label });
  metrics.upstreamSeconds.observe({ upstream: plan.name }, ms / 1000);
  if (failed) metrics.upstreamErrors.inc({ upstream: plan.name });
  lastHour.record(`upstream:${plan.name}`, ms, label === "aborted" ? undefined : failed);
  span?.end(
    {
      "upstream.outcome": label,
      ...(outcome.kind === "response" ? { "http.response.status_code": outcome.status } : {}),
    },
    failed,
  );
  return outcome;
}

/** The outcome as a label: `ok`, `client_error` (4xx), `rate_limited` (429), `server_error` (5xx), else its kind. */
function labelOf(outcome: ExchangeOutcome): string {
  if (outcome.kind !== "response") return outcome.kind;
  if (outcome.status === 429) return "rate_limited";
  return outcome.status < 400 ? "ok" : outcome.status < 500 ? "client_error" : "server_error";
}

async function withRetries(plan: ExchangePlan, signal: AbortSignal): Promise<ExchangeOutcome> {
  const retries = plan.method === "GET" || plan.idempotent ? plan.retries : 0;
  for (let attempt = 0; ; attempt++) {
    const { outcome, retryAfterMs } = await attemptOnce(plan, signal);
    const retryable =
      outcome.kind === "unreachable" || (outcome.kind === "response" && isRetryableStatus(outcome.status));
    if (!retryable || attempt >= retries) return outcome;
    const delay = retryAfterMs ?? backoff(plan.retryBaseMs, attempt);
    if (delay > maxRetryAfterMs) return outcome;
    plan.log?.warn({ upstream: plan.name, path: plan.url.pathname, attempt: attempt + 1, delay }, "upstream retry");
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return { kind: "aborted" };
    }
  }
}

async function attemptOnce(
  plan: ExchangePlan,
  signal: AbortSignal,
): Promise<{ outcome: ExchangeOutcome; retryAfterMs?: number }> {
  const timeout = AbortSignal.timeout(plan.timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  const ended = (): ExchangeOutcome =>
    signal.aborted ? { kind: "aborted" } : timeout.aborted ? { kind: "timeout" } : { kind: "unreachable" };
  try {
    const res = await follow(plan, both);
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const keep = plan.keepErrorBody && res.statusCode >= 400 && res.statusCode < 500;
      const errorBody = keep ? await readErrorBody(res) : (discard(res.body), undefined);
      const outcome: ExchangeOutcome = { kind: "response", status: res.statusCode, errorBody };
      return { outcome, retryAfterMs: retryAfter(res.headers["retry-after"]) };
    }
    const body = await readBody(res.body, {
      maxBytes: plan.maxBytes,
      encoding: res.headers["content-encoding"],
      declaredLength: res.headers["content-length"],
    });
    if (!body) return { outcome: { kind: "too-large" } };
    return { outcome: { kind: "response", status: res.statusCode, body: body.toString("utf8") } };
  } catch (error) {
    if (error instanceof RedirectRefused) return { outcome: { kind: "redirect-refused", location: error.message } };
    if (isDecodeError(error)) return { outcome: { kind: "undecodable" } };
    const outcome = ended();
    if (outcome.kind === "unreachable")
      plan.log?.warn({ upstream: plan.name, path: plan.url.pathname, error: errorCode(error) }, "upstream unreachable");
    return { outcome };
  }
}

class RedirectRefused extends Error {}

/**
 * The request, and the redirects the table allows. A hop to the configured origin is followed as is; a hop
 * anywhere else goes through the egress guard (a public address, connected to the address checked), as a
 * caller's URL would: a list's download moved to a metadata or private address is refused.
 */
async function follow(plan: ExchangePlan, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  let url = plan.url;
  let method: Dispatcher.HttpMethod = plan.method;
  let body = plan.body;
  for (let hop = 0; ; hop++) {
    const pinned = url.origin === plan.url.origin ? undefined : await pinnedTo(plan, url, signal);
    try {
      const res = await request(url, { method, headers: plan.headers, body, signal, dispatcher: pinned });
      res.body.on("error", () => {});
      const location = redirectStatuses.has(res.statusCode) ? res.headers.location : undefined;
      if (typeof location !== "string" || hop >= (plan.maxRedirections ?? 0)) return res;
      discard(res.body);
      url = new URL(location, url);
      if (res.statusCode === 303) [method, body] = ["GET", undefined];
    } finally {
      pinned?.destroy().catch(() => {});
    }
  }
}

async function pinnedTo(plan: ExchangePlan, url: URL, signal: AbortSignal): Promise<Agent> {
  if (!plan.guard) throw new RedirectRefused(url.href);
  try {
    return pinnedAgent((await plan.guard(url.href, signal)).address);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new RedirectRefused(url.href);
  }
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const errorBodyCap = 65_536;

async function readErrorBody(res: Dispatcher.ResponseData): Promise<string | undefined> {
  const read = await readBody(res.body, { maxBytes: errorBodyCap, encoding: res.headers["content-encoding"] }).catch(
    () => undefined,
  );
  return read?.toString("utf8");
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Exponential backoff with jitter between half and the full step, so retrying callers spread out. */
function backoff(baseMs: number, attempt: number): number {
  const step = baseMs * 2 ** attempt;
  return Math.round(step / 2 + Math.random() * (step / 2));
}

function retryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Only a code or name is logged: messages can carry URLs, and URLs can carry keys. */
function errorCode(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: string; name?: string };
  return code ?? name ?? "unknown";
}
