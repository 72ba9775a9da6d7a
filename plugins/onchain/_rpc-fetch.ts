import * as v from "valibot";

/** A node's answer larger than this is refused (viem's own default cap). */
const maxBytes = 10_485_760;

const RpcAnswer = v.looseObject({
  id: v.optional(v.unknown()),
  jsonrpc: v.optional(v.literal("2.0")),
  result: v.optional(v.unknown()),
  error: v.optional(v.looseObject({ code: v.number(), message: v.string() })),
});
const isAnswer = (x: unknown) => v.is(RpcAnswer, x) && ("result" in (x as object) || "error" in (x as object));

/**
 * viem's fetch for a chain node: the body is read up to a cap and must be a JSON-RPC answer (an object with a
 * `result` or an `error`, or a batch of them) before viem reads it. Anything else throws here, which viem turns
 * into an HttpRequestError: a 502 through nodeFailure, where a missing `result` would have been a TypeError.
 */
export async function checkedRpcFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  const text = await readCapped(res);
  if (res.ok) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error("the node answered something other than JSON");
    }
    if (!(Array.isArray(parsed) ? parsed.length > 0 && parsed.every(isAnswer) : isAnswer(parsed))) throw new Error("the node's answer is not JSON-RPC");
  }
  return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return "";
  if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
    await res.body.cancel().catch(() => {});
    throw new Error(`the node answered more than ${maxBytes} bytes`);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new Error(`the node answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}
