import { defineUpstreams } from "../endpoint.ts";

/** The core's own upstream: the payment network's node, which any family may also read (the arcade's seeds). */
export const coreUpstreams = defineUpstreams({
  "payment-chain": {
    url: "https://mainnet.base.org",
    commercialUse: "Base public RPC terms (not for production traffic)",
    rateLimit: "rate-limited per IP",
    terms:
      "JSON-RPC of the payment network (Base's public RPC, rate-limited); RPC_URL or UPSTREAM_PAYMENT_CHAIN_URL points it elsewhere, the devnet at its anvil",
  },
});
