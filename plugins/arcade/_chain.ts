import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const PAYMENT_CHAIN = "payment-chain";

export interface LatestBlock {
  hash: string;
  number: number;
  /** CAIP-2 id of the chain that answered, e.g. `eip155:8453`. */
  network: string;
}

/** A read from the payment chain's node (its error answer is the upstream client's 502). */
const rpc = <T>(api: Upstream, method: string, params: unknown[]) => api.rpc<T | null>(method, params);

/** The latest block of the payment network, whose hash seeds a play. */
export async function latestBlock(api: Upstream): Promise<LatestBlock> {
  const [block, chainId] = await Promise.all([
    rpc<{ hash: string; number: string }>(api, "eth_getBlockByNumber", ["latest", false]),
    rpc<string>(api, "eth_chainId", []),
  ]);
  if (!block || !/^0x[0-9a-f]{64}$/.test(block.hash ?? "") || !/^0x[0-9a-f]+$/.test(block.number ?? "") || !chainId) throw upstreamFailed(PAYMENT_CHAIN, "the latest block has no hash or number");
  return { hash: block.hash, number: Number(BigInt(block.number)), network: `eip155:${Number(BigInt(chainId))}` };
}
