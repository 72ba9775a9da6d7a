/**
 * Every third-party API the service calls, in one place: the README's "data sources" section is generated
 * from this table. A base URL here is the public default; configuration overrides it (tests point it at
 * loopback). Sources: research/upstreams-b.md, "Upstream registry (deduplicated)".
 */
export interface UpstreamKey {
  /** Environment variable that holds the key (`UPSTREAM_<NAME>_KEY`, read by config.ts). */
  env: string;
  /** Sent as this request header... */
  header?: string;
  /** ...or as this query parameter. */
  query?: string;
  /** The upstream works without the key (lower limits); an endpoint using it stays mounted. */
  optional?: boolean;
}

export interface UpstreamEntry {
  /** Public base URL; a request's path is appended to it. */
  url: string;
  /** One line: licence, attribution and limits a user of the data should know. */
  terms: string;
  key?: UpstreamKey;
  /** Sent with every request to this upstream. */
  headers?: Record<string, string>;
  /** Response size cap in bytes when the default is too small for this upstream. */
  maxBytes?: number;
}

export type UpstreamTable = Record<string, UpstreamEntry>;

export const upstreams = {
  // --- market ---
  "binance-futures": { url: "https://fapi.binance.com", terms: "Binance API terms; IP weight budget; answers 451 to US IPs" },
  bybit: { url: "https://api.bybit.com", terms: "Bybit API terms; US IPs reportedly blocked" },
  okx: { url: "https://www.okx.com/api/v5", terms: "OKX API terms; public market data, about 3 months of funding history" },
  hyperliquid: { url: "https://api.hyperliquid.xyz", terms: "Hyperliquid public info API (POST /info); weight-based limits" },
  deribit: { url: "https://www.deribit.com/api/v2", terms: "Deribit API terms; credit-based public limits" },
  "polymarket-gamma": { url: "https://gamma-api.polymarket.com", terms: "Polymarket terms of use; limits unpublished" },
  coingecko: {
    url: "https://api.coingecko.com/api/v3",
    terms: "CoinGecko API terms, attribution required; about 5-30 calls/min keyless, demo key 30/min",
    key: { env: "UPSTREAM_COINGECKO_KEY", header: "x-cg-demo-api-key", optional: true },
  },
  "defillama-coins": { url: "https://coins.llama.fi", terms: "DefiLlama open API, fair use" },
  "defillama-yields": { url: "https://yields.llama.fi", terms: "DefiLlama open API, fair use" },
  "defillama-stablecoins": { url: "https://stablecoins.llama.fi", terms: "DefiLlama open API, fair use; updated about hourly" },
  pendle: { url: "https://api-v2.pendle.finance/core", terms: "Pendle public API; limits unpublished" },
  geckoterminal: { url: "https://api.geckoterminal.com/api/v2", terms: "GeckoTerminal public API, attribution required; 30 calls/min" },
  dexscreener: { url: "https://api.dexscreener.com", terms: "DexScreener API terms; 60/min profiles and boosts, 300/min pairs" },
  "coinbase-tokenized-stocks": { url: "https://api.coinbase.com/v1/tokenized-stocks", terms: "Coinbase API terms; limits unpublished" },
  "yahoo-finance": {
    url: "https://query1.finance.yahoo.com",
    terms: "Unofficial; Yahoo's terms forbid commercial redistribution, budget a licensed feed; per-IP 429",
  },
  "sec-data": {
    url: "https://data.sec.gov",
    terms: "SEC EDGAR, public domain; at most 10 req/s; needs a User-Agent with a contact e-mail (403 otherwise)",
    maxBytes: 32_000_000,
  },
  "sec-files": { url: "https://www.sec.gov/files", terms: "SEC EDGAR, public domain; at most 10 req/s; User-Agent with a contact e-mail" },
  "sec-efts": { url: "https://efts.sec.gov", terms: "SEC EDGAR full-text search, public domain; at most 10 req/s; User-Agent with a contact e-mail" },
  fred: { url: "https://fred.stlouisfed.org/graph", terms: "FRED CSV download (keyless), series-specific copyright notes apply" },
  frankfurter: { url: "https://api.frankfurter.dev", terms: "Frankfurter, open source, ECB and other public reference rates; soft fair use" },

  // --- onchain ---
  goplus: { url: "https://api.gopluslabs.io/api", terms: "GoPlus Security API terms; about 30 req/min keyless (observed)" },
  "honeypot-is": { url: "https://api.honeypot.is", terms: "honeypot.is API; limits unpublished; Ethereum, BSC and Base" },
  rugcheck: {
    url: "https://api.rugcheck.xyz/v1",
    terms: "RugCheck API; summary route keyless (unverified), full reports need a key",
    key: { env: "UPSTREAM_RUGCHECK_KEY", header: "x-api-key", optional: true },
  },
  "blockscout-ethereum": { url: "https://eth.blockscout.com", terms: "Blockscout per-instance API, about 5 req/s per IP; PRO key planned" },
  "blockscout-base": { url: "https://base.blockscout.com", terms: "Blockscout per-instance API, about 5 req/s per IP; PRO key planned" },
  "blockscout-optimism": { url: "https://optimism.blockscout.com", terms: "Blockscout per-instance API, about 5 req/s per IP" },
  "blockscout-arbitrum": { url: "https://arbitrum.blockscout.com", terms: "Blockscout per-instance API, about 5 req/s per IP" },
  "blockscout-polygon": { url: "https://polygon.blockscout.com", terms: "Blockscout per-instance API, about 5 req/s per IP" },
  "blockscout-gnosis": { url: "https://gnosis.blockscout.com", terms: "Blockscout per-instance API, about 5 req/s per IP" },
  sourcify: { url: "https://sourcify.dev/server", terms: "Sourcify, verified sources under their own licences; limits unpublished" },
  "sourcify-4byte": { url: "https://api.4byte.sourcify.dev/signature-database/v1", terms: "Sourcify signature database; limits unpublished" },

  // --- web ---
  "iana-rdap": { url: "https://data.iana.org/rdap", terms: "IANA RDAP bootstrap registry (RFC 9224), public; fetch at most daily" },
  "pagespeed-insights": {
    url: "https://www.googleapis.com/pagespeedonline/v5",
    terms: "Google PageSpeed Insights API terms; keyless calls are heavily throttled, about 25,000/day with a free key; a run takes 10-30 s",
    key: { env: "UPSTREAM_PAGESPEED_INSIGHTS_KEY", query: "key", optional: true },
  },
  searxng: {
    url: "http://127.0.0.1:8888",
    terms: "A SearXNG instance the operator runs (JSON output enabled in its settings.yml), set with UPSTREAM_SEARXNG_URL; results are the queried engines', under their terms",
  },
  "wikipedia-api": { url: "https://en.wikipedia.org/w/api.php", terms: "MediaWiki Action API; text CC BY-SA 4.0, attribute; send a descriptive User-Agent" },
  "npm-registry": { url: "https://registry.npmjs.org", terms: "npm public registry; fair use; full package documents can be tens of MB", maxBytes: 64_000_000 },
  "npm-downloads": { url: "https://api.npmjs.org/downloads", terms: "npm download counts API; daily counts, 18 months of history; fair use" },
  pypi: { url: "https://pypi.org/pypi", terms: "PyPI JSON API; fair use; metadata as each project publishes it" },
  osv: { url: "https://api.osv.dev/v1", terms: "OSV.dev vulnerability database, CC BY 4.0 per source; no published limit" },
  "youtube-oembed": { url: "https://www.youtube.com", terms: "YouTube oEmbed under the YouTube API Services terms; keyless; title, author and thumbnail only" },
  github: {
    url: "https://api.github.com",
    terms: "GitHub REST API terms; 60 req/h per IP keyless, 5,000/h with a token; UPSTREAM_GITHUB_KEY holds the whole header value, `Bearer <token>`",
    key: { env: "UPSTREAM_GITHUB_KEY", header: "authorization", optional: true },
    headers: { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
  },
  "hn-algolia": { url: "https://hn.algolia.com/api/v1", terms: "HN Search by Algolia, keyless; about 10,000 req/h per IP (unofficial); pages through the first 1,000 hits only" },
  stackexchange: {
    url: "https://api.stackexchange.com/2.3",
    terms: "Stack Exchange API; 300 req/day per IP keyless, 10,000 with a free app key; content CC BY-SA, attribute; obey `backoff`",
    key: { env: "UPSTREAM_STACKEXCHANGE_KEY", query: "key", optional: true },
  },
  snapchain: { url: "https://snap.farcaster.xyz:3381/v1", terms: "Farcaster Snapchain node HTTP API, keyless; limits unpublished; the public node's policy may change" },

  // --- publicdata ---
  espn: { url: "https://site.api.espn.com/apis/site/v2/sports", terms: "Unofficial ESPN API; may change without notice" },
  usgs: { url: "https://earthquake.usgs.gov", terms: "USGS, public domain; prefer the summary feeds" },
  "open-meteo-archive": {
    url: "https://archive-api.open-meteo.com",
    terms: "Open-Meteo, CC BY 4.0; keyless tier is non-commercial only: a paid key (customer-archive-api host) is needed here",
    key: { env: "UPSTREAM_OPEN_METEO_ARCHIVE_KEY", query: "apikey", optional: true },
  },
  "open-meteo-geocoding": {
    url: "https://geocoding-api.open-meteo.com",
    terms: "Open-Meteo, CC BY 4.0; keyless tier is non-commercial only",
    key: { env: "UPSTREAM_OPEN_METEO_GEOCODING_KEY", query: "apikey", optional: true },
  },
  clinicaltrials: { url: "https://clinicaltrials.gov/api/v2", terms: "ClinicalTrials.gov, US NLM public data; limits unpublished" },
  openfda: {
    url: "https://api.fda.gov",
    terms: "openFDA, public domain (CC0); keyless 240/min and 1,000/day per IP, 120,000/day with a key",
    key: { env: "UPSTREAM_OPENFDA_KEY", query: "api_key", optional: true },
  },
  treasury: { url: "https://api.fiscaldata.treasury.gov/services/api/fiscal_service", terms: "US Treasury Fiscal Data, public domain" },
  worldbank: { url: "https://api.worldbank.org/v2", terms: "World Bank open data, CC BY 4.0" },
  eurostat: { url: "https://ec.europa.eu/eurostat/api/dissemination/statistics/1.0", terms: "Eurostat, reuse allowed with attribution" },
  ine: { url: "https://servicios.ine.es/wstempus/js", terms: "INE Spain, reuse allowed with attribution; slow" },
  census: {
    url: "https://api.census.gov/data",
    terms: "US Census Bureau, public domain; about 500 queries/day per IP keyless (unverified)",
    key: { env: "UPSTREAM_CENSUS_KEY", query: "key", optional: true },
  },
  nass: {
    url: "https://quickstats.nass.usda.gov/api",
    terms: "USDA NASS Quick Stats, public domain; free key required; 50,000 rows per query",
    key: { env: "UPSTREAM_NASS_KEY", query: "key" },
  },
  eia: {
    url: "https://api.eia.gov/v2",
    terms: "US EIA, public domain; free key required; 5,000 rows per page",
    key: { env: "UPSTREAM_EIA_KEY", query: "api_key" },
  },
  "energy-charts": { url: "https://api.energy-charts.info", terms: "Fraunhofer ISE Energy-Charts, CC BY 4.0" },
  "nih-reporter": { url: "https://api.reporter.nih.gov/v2", terms: "NIH RePORTER, public data; about 1 req/s" },
  usaspending: { url: "https://api.usaspending.gov/api/v2", terms: "USAspending.gov, public domain" },
  "cisa-kev": { url: "https://www.cisa.gov/sites/default/files/feeds", terms: "CISA KEV catalog, public domain; a static file" },
  arxiv: { url: "https://export.arxiv.org/api", terms: "arXiv API terms: one request every 3 s, metadata CC0" },
  "semantic-scholar": {
    url: "https://api.semanticscholar.org/graph/v1",
    terms: "Semantic Scholar API licence; shared keyless pool often 429s, 1 req/s with a key",
    key: { env: "UPSTREAM_SEMANTIC_SCHOLAR_KEY", header: "x-api-key", optional: true },
  },
  wikipedia: { url: "https://en.wikipedia.org/api/rest_v1", terms: "Wikimedia REST API, CC BY-SA; send a descriptive User-Agent" },
  uspto: {
    url: "https://api.uspto.gov",
    terms: "USPTO Open Data Portal, public data; key from a USPTO.gov account (MFA) required",
    key: { env: "UPSTREAM_USPTO_KEY", header: "x-api-key" },
  },
  genderize: {
    url: "https://api.genderize.io",
    terms: "Demografix terms; 100 names/day keyless, paid key above",
    key: { env: "UPSTREAM_GENDERIZE_KEY", query: "apikey", optional: true },
  },
  agify: {
    url: "https://api.agify.io",
    terms: "Demografix terms; 100 names/day keyless, paid key above",
    key: { env: "UPSTREAM_AGIFY_KEY", query: "apikey", optional: true },
  },
  nationalize: {
    url: "https://api.nationalize.io",
    terms: "Demografix terms; 100 names/day keyless, paid key above",
    key: { env: "UPSTREAM_NATIONALIZE_KEY", query: "apikey", optional: true },
  },
} satisfies UpstreamTable;

export type UpstreamName = keyof typeof upstreams;
