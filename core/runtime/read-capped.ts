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

/** The declared Content-Length, when there is a usable one. */
export function declaredLength(value: string | string[] | undefined): number | undefined {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return value !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined;
}
