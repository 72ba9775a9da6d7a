import type { UpstreamTable } from "../upstreams.ts";

export const payments = {
  "payment-chain": {
    url: "https://mainnet.base.org",
    terms: "JSON-RPC of the payment network (Base's public RPC, rate-limited); RPC_URL or UPSTREAM_PAYMENT_CHAIN_URL points it elsewhere, the devnet at its anvil",
  },
} satisfies UpstreamTable;
