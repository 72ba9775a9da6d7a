import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

const ignore = () => {};

/**
 * Reads a body stream into one buffer, giving up as soon as it passes `maxBytes` so that an endless or
 * huge answer never sits in memory. Returns undefined when the cap was passed.
 */
export async function readCapped(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, size);
}

export interface BodyOptions {
  maxBytes: number;
  /** The Content-Encoding to undo (gzip, deflate, br); the cap applies to the decoded bytes. */
  encoding?: string | string[];
  /** The Content-Length the sender declared: over the cap (encoded or not), nothing is read. */
  declaredLength?: string | string[];
}

/**
 * Reads an HTTP answer's body, decoded, up to `maxBytes` (undefined past it). The body is always either read
 * to its end or cancelled, and every stream involved has an error listener from the start: a body cancelled
 * here, or cut by its connection closing later, never raises an error nobody listens to. A body that does
 * not decode rejects with zlib's error.
 */
export async function readBody(body: Readable, options: BodyOptions): Promise<Buffer | undefined> {
  body.on("error", ignore);
  const length = declaredLength(options.declaredLength);
  if (length !== undefined && length > options.maxBytes) {
    discard(body);
    return undefined;
  }
  const decoder = length === 0 ? undefined : decoderFor(options.encoding);
  decoder?.on("error", ignore);
  let read: Buffer | undefined;
  let over = false;
  const sink = async (source: AsyncIterable<Uint8Array>) => {
    read = await readCapped(source, options.maxBytes);
    over = !read;
    if (over) throw new Error("over the cap");
  };
  try {
    await (decoder ? pipeline(body, decoder, sink) : pipeline(body, sink));
    return read;
  } catch (error) {
    discard(body);
    if (over) return undefined;
    throw error;
  }
}

/** Cancels a body nobody will read; its connection is closed rather than drained. */
export function discard(body: Readable): void {
  body.on("error", ignore);
  if (!body.destroyed) body.destroy();
}

// zlib's default 16 KiB output chunks cost ~3x the CPU of 64 KiB ones on a body of megabytes (a chunk each, and a
// Buffer for the collector to hold); the cap is still checked on every chunk.
const chunkSize = 64 * 1024;

export function decoderFor(
  encoding: string | string[] | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  const name = String(encoding ?? "")
    .trim()
    .toLowerCase();
  if (name === "gzip" || name === "x-gzip") return zlib.createGunzip({ chunkSize });
  if (name === "deflate") return zlib.createInflate({ chunkSize });
  if (name === "br") return zlib.createBrotliDecompress({ chunkSize });
  return undefined;
}

/** zlib's and brotli's errors for data that is not what its Content-Encoding says. */
export function isDecodeError(error: unknown): boolean {
  return /^(Z_|ERR__)/.test(String((error as { code?: unknown })?.code ?? ""));
}

/** The declared Content-Length, when there is a usable one. */
export function declaredLength(value: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return value !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined;
}
