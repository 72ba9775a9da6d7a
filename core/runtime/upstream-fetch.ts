import zlib from "node:zlib";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import type { Logger } from "../endpoint.ts";
import { declaredLength, readCapped } from "./read-capped.ts";

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
  /** Read a 4xx answer's body (capped) instead of discarding it. */
  keepErrorBody?: boolean;
  maxRedirections?: number;
}

/** How one exchange with an upstream ended, after any retries. */
export type Outcome =
  | { kind: "response"; status: number; body?: string; errorBody?: string }
  | { kind: "unreachable" }
  | { kind: "timeout" }
  | { kind: "too-large" }
  | { kind: "aborted" };

/** Longest Retry-After we wait for; an upstream asking for more is not retried. */
const maxRetryAfterMs = 2_000;

export async function exchange(plan: ExchangePlan, signal: AbortSignal): Promise<Outcome> {
  const retries = plan.method === "GET" ? plan.retries : 0;
  for (let attempt = 0; ; attempt++) {
    const { outcome, retryAfterMs } = await attemptOnce(plan, signal);
    const retryable = outcome.kind === "unreachable" || (outcome.kind === "response" && isRetryableStatus(outcome.status));
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

async function attemptOnce(plan: ExchangePlan, signal: AbortSignal): Promise<{ outcome: Outcome; retryAfterMs?: number }> {
  const timeout = AbortSignal.timeout(plan.timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  const ended = (): Outcome => (signal.aborted ? { kind: "aborted" } : timeout.aborted ? { kind: "timeout" } : { kind: "unreachable" });
  try {
    const res = await request(plan.url, { method: plan.method, headers: plan.headers, body: plan.body, signal: both, maxRedirections: plan.maxRedirections ?? 0 });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const errorBody = plan.keepErrorBody && res.statusCode >= 400 && res.statusCode < 500 ? await readErrorBody(res.body, res.headers["content-encoding"]) : undefined;
      if (errorBody === undefined) await res.body.dump().catch(() => {});
      const outcome: Outcome = { kind: "response", status: res.statusCode, errorBody };
      return { outcome, retryAfterMs: retryAfter(res.headers["retry-after"]) };
    }
    const length = declaredLength(res.headers["content-length"]);
    const body = length !== undefined && length > plan.maxBytes ? undefined : await readCapped(decoded(res.body, res.headers["content-encoding"]), plan.maxBytes);
    if (!body) {
      res.body.destroy();
      return { outcome: { kind: "too-large" } };
    }
    return { outcome: { kind: "response", status: res.statusCode, body: body.toString("utf8") } };
  } catch (error) {
    const outcome = ended();
    if (outcome.kind === "unreachable") plan.log?.warn({ upstream: plan.name, path: plan.url.pathname, error: errorCode(error) }, "upstream unreachable");
    return { outcome };
  }
}

const errorBodyCap = 65_536;

async function readErrorBody(body: Readable, encoding: string | string[] | undefined): Promise<string | undefined> {
  const read = await readCapped(decoded(body, encoding), errorBodyCap).catch(() => undefined);
  if (!read) body.destroy();
  return read?.toString("utf8");
}

/** Some APIs compress every answer (Stack Exchange gzips always); the size cap applies after decompression. */
function decoded(body: Readable, encoding: string | string[] | undefined): AsyncIterable<Uint8Array> {
  const name = String(encoding ?? "").trim().toLowerCase();
  const decoder = name === "gzip" || name === "x-gzip" ? zlib.createGunzip() : name === "deflate" ? zlib.createInflate() : name === "br" ? zlib.createBrotliDecompress() : undefined;
  return decoder ? body.pipe(decoder) : body;
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
