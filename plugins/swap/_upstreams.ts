import { defineUpstreams } from "../../core/endpoint.ts";
import { sharedUpstreams } from "../_shared/upstreams.ts";

/** Swap aggregators raced by /v1/swap (research/onchain-products.md section 2) and Jupiter for Solana. */
export const swapUpstreams = defineUpstreams({
  relay: {
    url: "https://api.relay.link",
    commercialUse: "integrators allowed; app fees accrue to a claimable balance",
    rateLimit: "lower keyless, raised with x-api-key (unpublished)",
    terms:
      "Relay API (POST /quote/v2), keyless with lower limits, x-api-key raises them; app fees accrue to a claimable balance",
    key: { env: "UPSTREAM_RELAY_KEY", header: "x-api-key", optional: true },
  },
  lifi: {
    url: "https://li.quest/v1",
    commercialUse: "integrators allowed; fees to the wallet registered at portal.li.fi",
    rateLimit: "about 75 quotes / 2 h keyless, raised with a key",
    terms:
      "LI.FI API (GET /quote), keyless about 75 quotes per 2 h, x-lifi-api-key raises it; integrator fees go to the wallet registered at portal.li.fi (SWAP_LIFI_FEE_WALLET); LI.FI adds its own 0.25% fee",
    key: { env: "UPSTREAM_LIFI_KEY", header: "x-lifi-api-key", optional: true },
  },
  across: {
    url: "https://app.across.to/api",
    commercialUse: "production use asks for an API key and an integratorId",
    rateLimit: "unpublished",
    terms:
      "Across Swap API (GET /swap/approval), cross-chain only; production use asks for an API key (sent as Authorization: Bearer) and an integratorId (SWAP_ACROSS_INTEGRATOR_ID); do not cache answers",
    key: { env: "UPSTREAM_ACROSS_KEY", header: "authorization", scheme: "Bearer", optional: true },
  },
  debridge: {
    url: "https://dln.debridge.finance/v1.0",
    commercialUse: "public access; affiliate fees need a referralCode",
    rateLimit: "public limits, raised with an accesstoken (unpublished)",
    terms:
      "deBridge DLN API (GET /dln/order/create-tx), cross-chain only, keyless public access; accesstoken raises limits; affiliate fees need a referralCode (SWAP_DEBRIDGE_REFERRAL_CODE); a fixed native fee is added to tx.value",
    key: { env: "UPSTREAM_DEBRIDGE_KEY", query: "accesstoken", optional: true },
  },
  kyberswap: {
    url: "https://aggregator-api.kyberswap.com",
    commercialUse: "integrators identified by x-client-id",
    rateLimit: "about 3 requests / s",
    terms:
      "KyberSwap Aggregator API, same-chain, keyless with an x-client-id header, about 3 requests/s; routes expire in about 30 s",
    headers: { "x-client-id": "x402-agent-services" },
  },
  jupiter: {
    url: "https://api.jup.ag",
    commercialUse: "free key from portal.jup.ag; paid tiers above",
    rateLimit: "60 requests / min on the free tier",
    terms:
      "Jupiter Swap API v2 (/swap/v2/build) and Tokens API v2 (api.jup.ag), free key from portal.jup.ag, 60 requests/min on the free tier; keyless lite-api is retired",
    key: { env: "UPSTREAM_JUPITER_KEY", header: "x-api-key" },
  },
  "defillama-coins": sharedUpstreams["defillama-coins"],
});
