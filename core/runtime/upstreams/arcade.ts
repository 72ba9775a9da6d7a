import type { UpstreamTable } from "../upstreams.ts";

/** The arcade also uses binance-futures and okx (market.ts), coingecko (market.ts) and payment-chain (payments.ts). */
export const arcade = {
  "alternative-me": {
    url: "https://api.alternative.me",
    terms: "alternative.me Crypto Fear & Greed Index, free, attribution to alternative.me required next to the data; one new value a day; limits unpublished",
  },
} satisfies UpstreamTable;
