import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const PAYMENT_CHAIN = "payment-chain";

export interface LatestBlock {
  hash: string;
  number: number;
  /** CAIP-2 id of the chain that answered, e.g. `eip155:8453`. */
  network: string;
}

interface RpcAnswer<T> {
  result?: T;
  error?: { code: number; message: string };
}

async function rpc<T>(api: Upstream, method: string, params: unknown[]): Promise<T> {
  const body = await api.json<RpcAnswer<T>>("", { method: "POST", body: { jsonrpc: "2.0", id: 1, method, params } });
  if (body?.error || body?.result == null) throw upstreamFailed(PAYMENT_CHAIN, `${method} failed: ${body?.error?.message ?? "no result"}`);
  return body.result;
}

/** The latest block of the payment network, whose hash seeds a play. */
export async function latestBlock(api: Upstream): Promise<LatestBlock> {
  const [block, chainId] = await Promise.all([
    rpc<{ hash: string; number: string }>(api, "eth_getBlockByNumber", ["latest", false]),
    rpc<string>(api, "eth_chainId", []),
  ]);
  if (!/^0x[0-9a-f]{64}$/.test(block.hash ?? "") || !/^0x[0-9a-f]+$/.test(block.number ?? "")) throw upstreamFailed(PAYMENT_CHAIN, "the latest block has no hash or number");
  return { hash: block.hash, number: Number(BigInt(block.number)), network: `eip155:${Number(BigInt(chainId))}` };
}
