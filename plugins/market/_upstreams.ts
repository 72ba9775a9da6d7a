import { defineUpstreams } from "../../core/endpoint.ts";
import { sharedUpstreams } from "../_shared/upstreams.ts";

/** EDGAR refuses requests whose User-Agent names no contact e-mail (https://www.sec.gov/os/accessing-edgar-data). */
const secUserAgent = {
  env: "SEC_USER_AGENT",
  header: "user-agent",
  pattern: /\S+@\S+\.\S+/,
  what: 'a User-Agent naming a contact e-mail, such as "Example Corp admin@example.com"',
};

/** The market family's data sources; those other families list too are in plugins/_shared/upstreams.ts. */
export const marketUpstreams = defineUpstreams({
  "binance-futures": sharedUpstreams["binance-futures"],
  bybit: {
    commercialUse: "Bybit API terms; public market data",
    rateLimit: "600 requests / 5 s per IP",
    url: "https://api.bybit.com",
    terms: "Bybit API terms; US IPs reportedly blocked",
  },
  okx: sharedUpstreams["okx"],
  hyperliquid: sharedUpstreams["hyperliquid"],
  deribit: {
    commercialUse: "Deribit API terms; public market data",
    rateLimit: "credit-based",
    url: "https://www.deribit.com/api/v2",
    terms: "Deribit API terms; credit-based public limits",
  },
  "polymarket-gamma": {
    commercialUse: "Polymarket terms of use",
    rateLimit: "unpublished",
    url: "https://gamma-api.polymarket.com",
    terms: "Polymarket terms of use; limits unpublished",
  },
  coingecko: sharedUpstreams["coingecko"],
  defillama: {
    commercialUse: "open, fair use",
    rateLimit: "unpublished (fair use)",
    url: "https://api.llama.fi",
    terms: "DefiLlama open API (TVL), fair use",
  },
  "defillama-coins": sharedUpstreams["defillama-coins"],
  "defillama-yields": {
    commercialUse: "open, fair use",
    rateLimit: "unpublished (fair use)",
    url: "https://yields.llama.fi",
    terms: "DefiLlama open API, fair use; /pools is a large file",
    maxBytes: 64_000_000,
  },
  "defillama-stablecoins": {
    commercialUse: "open, fair use",
    rateLimit: "unpublished (fair use)",
    url: "https://stablecoins.llama.fi",
    terms: "DefiLlama open API, fair use; updated about hourly",
  },
  pendle: {
    commercialUse: "Pendle terms",
    rateLimit: "unpublished",
    url: "https://api-v2.pendle.finance/core",
    terms: "Pendle public API; limits unpublished",
  },
  geckoterminal: sharedUpstreams["geckoterminal"],
  dexscreener: {
    commercialUse: "DexScreener API terms",
    rateLimit: "60/min profiles, 300/min pairs",
    url: "https://api.dexscreener.com",
    terms: "DexScreener API terms; 60/min profiles and boosts, 300/min pairs",
  },
  "coinbase-tokenized-stocks": {
    commercialUse: "Coinbase API terms",
    rateLimit: "unpublished",
    url: "https://api.coinbase.com/v1/tokenized-stocks",
    terms: "Coinbase API terms; limits unpublished",
  },
  "twelve-data": {
    commercialUse: "free Basic plan is personal use; needs a plan licensing redistribution",
    rateLimit: "8 calls/min, 800/day (Basic)",
    url: "https://api.twelvedata.com",
    terms:
      "Twelve Data API terms: the free Basic plan (8 calls/min, 800/day) is for personal use; serving its data to paying callers needs a plan that licenses it",
    key: { env: "UPSTREAM_TWELVE_DATA_KEY", query: "apikey" },
  },
  "sec-data": {
    commercialUse: "public domain",
    rateLimit: "10 requests/s",
    headerSetting: secUserAgent,
    url: "https://data.sec.gov",
    terms:
      "SEC EDGAR, public domain; at most 10 req/s; SEC_USER_AGENT (a User-Agent with a contact e-mail) is required, EDGAR answers 403 without one",
    maxBytes: 32_000_000,
  },
  "sec-files": {
    commercialUse: "public domain",
    rateLimit: "10 requests/s",
    headerSetting: secUserAgent,
    url: "https://www.sec.gov/files",
    terms: "SEC EDGAR, public domain; at most 10 req/s; SEC_USER_AGENT required",
  },
  "sec-efts": {
    commercialUse: "public domain",
    rateLimit: "10 requests/s",
    headerSetting: secUserAgent,
    url: "https://efts.sec.gov",
    terms: "SEC EDGAR full-text search, public domain; at most 10 req/s; SEC_USER_AGENT required",
  },
  "coindesk-rss": {
    commercialUse: "headline, link and summary only",
    rateLimit: "fair use",
    url: "https://www.coindesk.com/arc/outboundfeeds/rss",
    terms: "CoinDesk RSS, headline, link and short summary only (publisher's terms); fair use",
  },
  "cointelegraph-rss": {
    commercialUse: "headline, link and summary only",
    rateLimit: "fair use",
    url: "https://cointelegraph.com/rss",
    terms: "Cointelegraph RSS, headline, link and short summary only (publisher's terms); fair use",
  },
  "decrypt-rss": {
    commercialUse: "headline, link and summary only",
    rateLimit: "fair use",
    url: "https://decrypt.co/feed",
    terms: "Decrypt RSS, headline, link and short summary only (publisher's terms); fair use",
  },
  "theblock-rss": {
    commercialUse: "headline, link and summary only",
    rateLimit: "fair use",
    url: "https://www.theblock.co/rss.xml",
    terms: "The Block RSS, headline, link and short summary only (publisher's terms); fair use",
  },
  fred: {
    commercialUse: "per-series copyright notes",
    rateLimit: "unpublished",
    url: "https://fred.stlouisfed.org/graph",
    terms: "FRED CSV download (keyless), series-specific copyright notes apply",
  },
  frankfurter: {
    commercialUse: "open source, public reference rates",
    rateLimit: "soft fair use",
    url: "https://api.frankfurter.dev",
    terms: "Frankfurter, open source, ECB and other public reference rates; soft fair use",
  },
  "mempool-space": {
    commercialUse: "open, self-hostable",
    rateLimit: "unpublished (fair use)",
    url: "https://mempool.space/api",
    terms: "mempool.space public API, fair use (limits unpublished); self-hostable",
  },
  "exchangerate-api": {
    commercialUse: "attribution required",
    rateLimit: "per IP, unpublished",
    url: "https://open.er-api.com/v6",
    terms: "ExchangeRate-API open access, attribution required; daily rates, rate limited per IP",
  },
  "alternative-me": sharedUpstreams["alternative-me"],
});
