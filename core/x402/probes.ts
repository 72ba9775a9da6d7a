import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import type { Probe } from "../runtime/readiness.ts";

/** One JSON-RPC call's `result` (undefined when the node gives none); a non-2xx answer throws with its status. */
async function rpcResult(rpcUrl: string, method: string, params: unknown[], signal: AbortSignal) {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal,
  });
  if (!res.ok) throw new Error(`the RPC answered ${res.status}`);
  return ((await res.json()) as { result?: unknown }).result;
}

/** The payment chain's RPC answers `eth_chainId`. */
export const chainProbe =
  (rpcUrl: string): Probe =>
  async (signal) => {
    if (!(await rpcResult(rpcUrl, "eth_chainId", [], signal))) throw new Error("the RPC gave no chain id");
  };

/** The batch-settlement escrow is deployed where @x402/evm signs for it: the chain has code at that address. */
export const escrowProbe =
  (rpcUrl: string): Probe =>
  async (signal) => {
    const code = await rpcResult(rpcUrl, "eth_getCode", [BATCH_SETTLEMENT_ADDRESS, "latest"], signal);
    if (!code || code === "0x")
      throw new Error(`no batch-settlement escrow at ${BATCH_SETTLEMENT_ADDRESS} on this chain`);
  };

/** A Solana RPC answers `getHealth` with "ok". */
export const svmChainProbe =
  (rpcUrl: string): Probe =>
  async (signal) => {
    if ((await rpcResult(rpcUrl, "getHealth", [], signal)) !== "ok") throw new Error("the RPC is not healthy");
  };

/** A remote facilitator answers its `GET /supported`, the one read every x402 facilitator serves. */
export const facilitatorProbe =
  (url: string, auth?: string): Probe =>
  async (signal) => {
    const res = await fetch(`${url.replace(/\/$/, "")}/supported`, {
      headers: auth ? { authorization: auth } : {},
      signal,
    });
    if (!res.ok) throw new Error(`the facilitator answered ${res.status}`);
    await res.body?.cancel();
  };
