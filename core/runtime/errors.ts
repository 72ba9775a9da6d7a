import * as v from "valibot";

/** The one error type a handler or the runtime throws; `toErrorBody` turns it into the JSON envelope. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    // A 4xx is the caller's mistake and is never logged with a stack: capturing one cost a quarter of the
    // 400 path's throughput (bench/findings.md).
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/**
 * A node's JSON-RPC error answer (a revert, an unknown method): a 502 unless the caller reads it as an answer
 * about the chain (the chain transport hands it to viem, which decodes reverts from `rpc.data`).
 */
export class RpcAnswerError extends ServiceError {
  constructor(
    upstream: string,
    method: string,
    readonly rpc: { code: number; message: string; data?: unknown },
  ) {
    super(502, "upstream_error", `${upstream}: ${method} failed: ${rpc.message}`, { upstream, rpcCode: rpc.code });
  }
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export const badRequest = (message: string, details?: unknown) =>
  new ServiceError(400, "invalid_input", message, details);
/** A 400 for a problem only the handler can see, shaped like the schema's own field issues. */
export const fieldError = (field: string, message: string) => badRequest(message, { issues: [{ field, message }] });
export const notFound = (message = "Not found", details?: unknown) =>
  new ServiceError(404, "not_found", message, details);
export const conflict = (code: string, message: string) => new ServiceError(409, code, message);
export const upstreamFailed = (upstream: string, message: string) =>
  new ServiceError(502, "upstream_error", message, { upstream });
/** An upstream answered, but not in the shape the code reads: never used, never cached, never charged. */
export const upstreamInvalid = (upstream: string, problems: string[]) =>
  new ServiceError(502, "upstream_invalid", `${upstream} answered in an unexpected shape`, { upstream, problems });
export const upstreamTimeout = (upstream: string) =>
  new ServiceError(504, "upstream_timeout", `${upstream} did not answer in time`, { upstream });
export const unavailable = (message: string, retryAfterSeconds: number, details?: unknown) =>
  new ServiceError(503, "unavailable", message, details, { "retry-after": String(retryAfterSeconds) });
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ServiceError(
    429,
    "rate_limited",
    "Too many requests",
    { retryAfterSeconds },
    { "retry-after": String(retryAfterSeconds) },
  );

export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof Error && error.name === "TimeoutError")
    // The connection goes too (listen.ts ends it after a grace): a client that let a call time out may not read.
    return new ServiceError(504, "timeout", "The call took too long", undefined, { connection: "close" });
  return new ServiceError(500, "internal_error", "Internal error");
}

export function toErrorBody(error: ServiceError): ErrorBody {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  if (error.details !== undefined) body.error.details = error.details;
  return body;
}

/**
 * An upstream's answer checked against the shape the code reads, as a caller's input is: anything else is a
 * 502 `upstream_invalid` before the data is used or cached. Text answers (XML, CSV) are checked the same way
 * once parsed.
 */
export function checkUpstream<S extends v.GenericSchema>(upstream: string, shape: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(shape, value);
  if (result.success) return result.output;
  const problems = result.issues.slice(0, 5).map((issue) => `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`);
  throw upstreamInvalid(upstream, problems);
}
