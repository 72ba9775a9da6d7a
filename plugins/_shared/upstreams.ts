import { defineUpstreams } from "../../core/endpoint.ts";

/** Data sources more than one family lists: each family's table names the same entry, so the merged table holds it once. */
export const sharedUpstreams = defineUpstreams({
  "alternative-me": {
    commercialUse: "allowed with attribution next to the data",
    rateLimit: "unpublished",
    url: "https://api.alternative.me",
    terms:
      "alternative.me Crypto Fear & Greed Index, free, attribution to alternative.me required next to the data; one new value a day; limits unpublished",
  },
  "binance-futures": {
    commercialUse: "Binance API terms; public market data",
    rateLimit: "IP weight budget (2,400/min)",
    url: "https://fapi.binance.com",
    terms: "Binance API terms; IP weight budget; answers 451 to US IPs",
  },
  coingecko: {
    commercialUse: "attribution required; commercial use needs a paid plan",
    rateLimit: "5-30 calls/min keyless, 30/min demo key",
    url: "https://api.coingecko.com/api/v3",
    terms: "CoinGecko API terms, attribution required; about 5-30 calls/min keyless, demo key 30/min",
    key: { env: "UPSTREAM_COINGECKO_KEY", header: "x-cg-demo-api-key", optional: true },
  },
  hyperliquid: {
    commercialUse: "public data",
    rateLimit: "1,200 weight/min per IP",
    url: "https://api.hyperliquid.xyz",
    terms: "Hyperliquid public info API (POST /info); weight-based limits",
  },
  okx: {
    commercialUse: "OKX API terms; public market data",
    rateLimit: "20 requests / 2 s per route",
    url: "https://www.okx.com/api/v5",
    terms: "OKX API terms; public market data, about 3 months of funding history",
  },
  "defillama-coins": {
    commercialUse: "open, fair use",
    rateLimit: "unpublished (fair use)",
    url: "https://coins.llama.fi",
    terms: "DefiLlama open API, fair use",
  },
  geckoterminal: {
    commercialUse: "attribution required",
    rateLimit: "30 calls/min",
    url: "https://api.geckoterminal.com/api/v2",
    terms: "GeckoTerminal public API, attribution required; 30 calls/min",
  },
  goplus: {
    commercialUse: "GoPlus API terms",
    rateLimit: "about 30/min keyless",
    url: "https://api.gopluslabs.io/api",
    terms: "GoPlus Security API terms; about 30 req/min keyless (observed)",
  },
  "iana-rdap": {
    commercialUse: "public",
    rateLimit: "fetch at most daily",
    url: "https://data.iana.org/rdap",
    terms: "IANA RDAP bootstrap registry (RFC 9224), public; fetch at most daily",
  },
  "wikipedia-api": {
    commercialUse: "CC BY-SA 4.0: attribute",
    rateLimit: "Wikimedia limits",
    url: "https://en.wikipedia.org/w/api.php",
    terms: "MediaWiki Action API; text CC BY-SA 4.0, attribute; send a descriptive User-Agent",
  },
});
