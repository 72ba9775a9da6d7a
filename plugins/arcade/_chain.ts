import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const PAYMENT_CHAIN = "payment-chain";

export interface Block {
  number: number;
  hash: string;
  /** Unix seconds. */
  timestamp: number;
}

/** A read from the payment chain's node (its error answer is the upstream client's 502). */
const rpc = <T>(api: Upstream, method: string, params: unknown[]) => api.rpc<T | null>(method, params);

const quantity = (hex: unknown, what: string) => {
  if (typeof hex !== "string" || !/^0x[0-9a-f]+$/.test(hex))
    throw upstreamFailed(PAYMENT_CHAIN, `${what} is not a hex quantity`);
  return Number(BigInt(hex));
};

/** The newest block number and the network (CAIP-2, e.g. `eip155:8453`) of the payment chain. */
export async function chainHead(api: Upstream): Promise<{ number: number; network: string }> {
  const [number, chainId] = await Promise.all([
    rpc<string>(api, "eth_blockNumber", []),
    rpc<string>(api, "eth_chainId", []),
  ]);
  return { number: quantity(number, "eth_blockNumber"), network: `eip155:${quantity(chainId, "eth_chainId")}` };
}

/** A block by number; undefined while the chain has not mined it. */
export async function blockAt(api: Upstream, n: number): Promise<Block | undefined> {
  const block = await rpc<{ number: string; hash: string; timestamp: string }>(api, "eth_getBlockByNumber", [
    `0x${n.toString(16)}`,
    false,
  ]);
  if (!block) return undefined;
  if (!/^0x[0-9a-f]{64}$/.test(block.hash ?? "")) throw upstreamFailed(PAYMENT_CHAIN, `block ${n} has no hash`);
  return {
    number: quantity(block.number, "the block number"),
    hash: block.hash,
    timestamp: quantity(block.timestamp, "the block timestamp"),
  };
}
