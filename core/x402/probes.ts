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
