import { createPublicClient, custom, RpcRequestError, type Chain, type PublicClient } from "viem";
import type { RpcCall, Upstream } from "../endpoint.ts";
import { RpcAnswerError } from "./errors.ts";

/** Calls a node takes in one batch at most; public nodes refuse larger ones. */
const batchSize = 100;

/**
 * A viem client whose every request goes through an upstream client (`ctx.upstream(name)` of a JSON-RPC
 * upstream): the call's signal and deadline, the upstream's breaker, retries, single flight, size cap and
 * `meta.sources` apply to chain reads as to any other upstream, and tests serve them from fixtures.
 * Made per call (cheap: no connection of its own), so it carries that call's signal.
 *
 * Reads made in the same tick go out as one JSON-RPC batch (as viem's HTTP transport does with `batch`): a
 * handler's dozen reads are one request to the node, not a dozen against its rate limit. A lone read is a
 * plain request. A node's error answer reaches viem as its own `RpcRequestError`, so reverts decode as they
 * would over HTTP; a transport failure stays the upstream client's `ServiceError` (the error's cause).
 */
export function chainClient(upstream: Upstream, chain?: Chain): PublicClient {
  const send = batching(upstream);
  const transport = custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        try {
          return await send({ method, params: Array.isArray(params) ? params : params === undefined ? [] : [params] });
        } catch (error) {
          if (error instanceof RpcAnswerError)
            throw new RpcRequestError({ body: { method, params }, error: error.rpc, url: upstream.name });
          throw error;
        }
      },
    },
    // The upstream client retries what is worth retrying; viem's own retries would multiply them.
    { retryCount: 0 },
  );
  return createPublicClient({ chain, transport }) as PublicClient;
}

interface Waiting extends RpcCall {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/** Collects the reads of one tick and sends them together. */
function batching(upstream: Upstream) {
  let queue: Waiting[] = [];
  const flush = () => {
    const calls = queue;
    queue = [];
    for (let i = 0; i < calls.length; i += batchSize) sendAll(upstream, calls.slice(i, i + batchSize));
  };
  return (call: RpcCall) =>
    new Promise<unknown>((resolve, reject) => {
      if (queue.push({ ...call, resolve, reject }) === 1) setTimeout(flush, 0);
    });
}

function sendAll(upstream: Upstream, calls: Waiting[]) {
  if (calls.length === 1) {
    const [only] = calls;
    upstream.rpc(only.method, only.params).then(only.resolve, only.reject);
    return;
  }
  upstream.rpcBatch(calls).then(
    (answers) =>
      answers.forEach((answer, i) =>
        "error" in answer
          ? calls[i].reject(new RpcAnswerError(upstream.name, calls[i].method, answer.error))
          : calls[i].resolve(answer.result),
      ),
    (error) => calls.forEach((c) => c.reject(error)),
  );
}
