import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const PAYMENT_CHAIN = "payment-chain";

export interface Block {
  number: number;
  hash: string;
  /** Unix seconds. */
  timestamp: number;
}

interface RpcAnswer<T> {
  result?: T;
  error?: { code: number; message: string };
}

async function rpc<T>(api: Upstream, method: string, params: unknown[]): Promise<T | null> {
  const body = await api.json<RpcAnswer<T>>("", { method: "POST", body: { jsonrpc: "2.0", id: 1, method, params } });
  if (body?.error || body?.result === undefined) throw upstreamFailed(PAYMENT_CHAIN, `${method} failed: ${body?.error?.message ?? "no result"}`);
  return body.result;
}

const quantity = (hex: unknown, what: string) => {
  if (typeof hex !== "string" || !/^0x[0-9a-f]+$/.test(hex)) throw upstreamFailed(PAYMENT_CHAIN, `${what} is not a hex quantity`);
  return Number(BigInt(hex));
};

/** The newest block number and the network (CAIP-2, e.g. `eip155:8453`) of the payment chain. */
export async function chainHead(api: Upstream): Promise<{ number: number; network: string }> {
  const [number, chainId] = await Promise.all([rpc<string>(api, "eth_blockNumber", []), rpc<string>(api, "eth_chainId", [])]);
  return { number: quantity(number, "eth_blockNumber"), network: `eip155:${quantity(chainId, "eth_chainId")}` };
}

/** A block by number; undefined while the chain has not mined it. */
export async function blockAt(api: Upstream, n: number): Promise<Block | undefined> {
  const block = await rpc<{ number: string; hash: string; timestamp: string }>(api, "eth_getBlockByNumber", [`0x${n.toString(16)}`, false]);
  if (!block) return undefined;
  if (!/^0x[0-9a-f]{64}$/.test(block.hash ?? "")) throw upstreamFailed(PAYMENT_CHAIN, `block ${n} has no hash`);
  return { number: quantity(block.number, "the block number"), hash: block.hash, timestamp: quantity(block.timestamp, "the block timestamp") };
}
