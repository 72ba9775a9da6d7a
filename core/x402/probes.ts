import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import type { Probe } from "../runtime/readiness.ts";

/** The payment chain's RPC answers `eth_chainId`. */
export const chainProbe =
  (rpcUrl: string): Probe =>
  async (signal) => {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal,
    });
    if (!res.ok) throw new Error(`the RPC answered ${res.status}`);
    const body = (await res.json()) as { result?: string };
    if (!body.result) throw new Error("the RPC gave no chain id");
  };

/** The batch-settlement escrow is deployed where @x402/evm signs for it: the chain has code at that address. */
export const escrowProbe =
  (rpcUrl: string): Probe =>
  async (signal) => {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_getCode",
        params: [BATCH_SETTLEMENT_ADDRESS, "latest"],
      }),
      signal,
    });
    if (!res.ok) throw new Error(`the RPC answered ${res.status}`);
    const body = (await res.json()) as { result?: string };
    if (!body.result || body.result === "0x")
      throw new Error(`no batch-settlement escrow at ${BATCH_SETTLEMENT_ADDRESS} on this chain`);
  };

/** A Solana RPC answers `getHealth` with "ok". */
export const svmChainProbe =
  (rpcUrl: string): Probe =>
  async (signal) => {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth" }),
      signal,
    });
    if (!res.ok) throw new Error(`the RPC answered ${res.status}`);
    const body = (await res.json()) as { result?: string };
    if (body.result !== "ok") throw new Error("the RPC is not healthy");
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
