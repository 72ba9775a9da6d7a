import type { x402Client } from "@x402/fetch";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { toClientEvmSigner } from "@x402/evm";
import { createPublicClient, http, type LocalAccount } from "viem";

/**
 * `npm run pay -- <path> --scheme upto`: the client pays with an upto Permit2 authorization only. Without a Permit2
 * allowance it signs an EIP-2612 permit for it, which the settlement submits.
 */
export function payWithUpto(client: x402Client, account: LocalAccount, rpcUrl: string) {
  const reader = createPublicClient({ transport: http(rpcUrl) });
  client.register("eip155:*", new UptoEvmScheme(toClientEvmSigner(account, reader)));
  client.registerPolicy((_version, accepts) => accepts.filter((a) => a.scheme === "upto"));
}

/** A fixed-price route is paid with upto as the one call of the batch, the route that pays as used. */
export function asTheBatchsOneCall(url: URL, init: RequestInit): { url: URL; init: RequestInit } | undefined {
  if (url.pathname === "/v1/batch") return undefined;
  const params = init.body ? JSON.parse(String(init.body)) : Object.fromEntries(url.searchParams);
  return {
    url: new URL("/v1/batch", url),
    init: {
      method: "POST",
      body: JSON.stringify({ calls: [{ path: url.pathname, params }] }),
      headers: { "content-type": "application/json" },
    },
  };
}
