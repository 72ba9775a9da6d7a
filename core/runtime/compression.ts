import { createHash } from "node:crypto";
import { promisify } from "node:util";
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from "node:zlib";
import { FastResponse } from "srvx";

export type Encoding = "br" | "gzip";

/** Bytes a response body takes as they are (zlib's buffers never sit on shared memory). */
export type Bytes = Uint8Array<ArrayBuffer>;

/** Smaller bodies go as they are: compressing them would save less than it costs. */
export const compressFrom = 1024;

/**
 * The encoding an Accept-Encoding header asks for: the one with the higher q-value, brotli on a tie, none when
 * neither is accepted (no header, `identity`, `br;q=0, gzip;q=0`).
 */
export function preferredEncoding(accept: string | null | undefined): Encoding | undefined {
  if (!accept) return undefined;
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of accept.split(",")) {
    const [token, ...params] = part.split(";");
    const name = token.trim().toLowerCase();
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    if (name === "br") br = weight;
    else if (name === "gzip" || name === "x-gzip") gz = weight;
    else if (name === "*") any = weight;
  }
  br ??= any ?? 0;
  gz ??= any ?? 0;
  if (!(br > 0) && !(gz > 0)) return undefined;
  return br >= gz ? "br" : "gzip";
}

/**
 * `fast` for an answer compressed per request (brotli 4 costs about what gzip's default does and saves more);
 * `once` for a body compressed once and served many times.
 */
type Effort = "fast" | "once";

const options = (encoding: Encoding, effort: Effort, size: number): BrotliOptions & ZlibOptions =>
  encoding === "br"
    ? {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: effort === "fast" ? 4 : 9,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }
    : { level: effort === "fast" ? 6 : 9 };

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compressed on libuv's thread pool, so a large body does not hold up other requests. */
export const compress = (body: string | Bytes, encoding: Encoding, effort: Effort): Promise<Bytes> =>
  (encoding === "br" ? brotliAsync : gzipAsync)(body, options(encoding, effort, byteLength(body))) as Promise<Bytes>;

/** For a small body compressed once (a route's 402 challenge), where a thread-pool round trip would cost more. */
export const compressSync = (body: string | Bytes, encoding: Encoding): Bytes =>
  (encoding === "br" ? brotliCompressSync : gzipSync)(body, options(encoding, "once", byteLength(body))) as Bytes;

const byteLength = (body: string | Bytes) => (typeof body === "string" ? Buffer.byteLength(body) : body.length);

/** What an answer needs to know of its request. */
interface Asked {
  headers: Headers;
}

/**
 * A body answered again and again (a discovery document, a page, a file): hashed once for its ETag, each
 * encoding compressed once on first demand.
 */
export interface Representation {
  body: Bytes;
  /** The hash of the body; each encoding is told apart by a suffix (`"…-br"`), as Apache does. */
  tag: string;
  headers: Record<string, string>;
  encoded: Partial<Record<Encoding, Promise<Bytes>>>;
}

export function representation(body: string | Bytes, headers: Record<string, string>): Representation {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const tag = createHash("sha256").update(bytes).digest("base64url").slice(0, 27);
  return { body: bytes, tag, headers, encoded: {} };
}

/** The representation for this request: a 304 when the client holds it (If-None-Match), compressed when it asks. */
export function serveRepresentation(request: Asked, r: Representation): Response | Promise<Response> {
  const big = r.body.length >= compressFrom;
  const encoding = big ? preferredEncoding(request.headers.get("accept-encoding")) : undefined;
  const etag = `"${r.tag}${encoding ? `-${encoding}` : ""}"`;
  const headers = { ...r.headers, etag, ...(big ? { vary: "accept-encoding" } : {}) };
  if (holds(request.headers.get("if-none-match"), r.tag)) return new FastResponse(null, { status: 304, headers });
  if (!encoding) return new FastResponse(r.body, { headers });
  r.encoded[encoding] ??= compress(r.body, encoding, "once");
  return r.encoded[encoding].then(
    (encoded) => new FastResponse(encoded, { headers: { ...headers, "content-encoding": encoding } }),
  );
}

/** If-None-Match names this body, in any of its encodings, weak or strong (`*` names anything). */
function holds(ifNoneMatch: string | null, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((entry) => {
    const value = entry.trim().replace(/^W\//, "");
    return value === "*" || value.replace(/^"|"$/g, "").replace(/-(br|gzip)$/, "") === tag;
  });
}

/**
 * Representations of bodies built per request (a page made from live data): the same text is compressed once,
 * and at most `size` of them are kept, the oldest dropped first.
 */
export function representationCache(size = 32) {
  const kept = new Map<string, Representation>();
  return (body: string, headers: Record<string, string>): Representation => {
    const fresh = representation(body, headers);
    const known = kept.get(fresh.tag);
    if (known) return known;
    kept.set(fresh.tag, fresh);
    if (kept.size > size) kept.delete(kept.keys().next().value!);
    return fresh;
  };
}

/** A body built for this request only, compressed when the client asks and it is big enough. */
export async function compressed(
  request: Asked,
  status: number,
  body: string | Bytes,
  headers: HeadersInit,
): Promise<Response> {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const encoding = bytes.length >= compressFrom ? preferredEncoding(request.headers.get("accept-encoding")) : undefined;
  const all = new Headers(headers);
  if (bytes.length >= compressFrom) all.append("vary", "accept-encoding");
  if (!encoding) return new FastResponse(bytes, { status, headers: all });
  const encoded = await compress(bytes, encoding, "fast");
  all.set("content-encoding", encoding);
  all.set("content-length", String(encoded.length));
  return new FastResponse(encoded, { status, headers: all });
}

const compressibleType =
  /^(text\/(?!event-stream)|application\/(json|javascript|xml|[\w.+-]+\+(json|xml))|image\/svg)/i;

/** A response built elsewhere (the MCP transport's): compressed like any other when its body is whole text. */
export async function compressResponse(request: Asked, response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  if (!response.body || response.headers.has("content-encoding") || !compressibleType.test(type)) return response;
  if (!preferredEncoding(request.headers.get("accept-encoding"))) return response;
  return compressed(request, response.status, new Uint8Array(await response.arrayBuffer()), response.headers);
}
