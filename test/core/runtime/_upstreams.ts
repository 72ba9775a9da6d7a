import { defineUpstreams } from "../../../core/endpoint.ts";

/**
 * The upstream table the core's tests use: entries shaped like real ones (a key in a header or the query,
 * required or optional, a large body, redirects), with no family's code behind them.
 */
export const testUpstreams = defineUpstreams({
  "defillama-coins": { url: "https://coins.llama.fi", terms: "test: keyless JSON" },
  coingecko: {
    url: "https://api.coingecko.com/api/v3",
    terms: "test: optional key in a header",
    key: { env: "UPSTREAM_COINGECKO_KEY", header: "x-cg-demo-api-key", optional: true },
  },
  hyperliquid: { url: "https://api.hyperliquid.xyz", terms: "test: a POST API" },
  frankfurter: { url: "https://api.frankfurter.dev", terms: "test: keyless JSON" },
  openfda: {
    url: "https://api.fda.gov",
    terms: "test: optional key in the query",
    key: { env: "UPSTREAM_OPENFDA_KEY", query: "api_key", optional: true },
  },
  nass: {
    url: "https://quickstats.nass.usda.gov/api",
    terms: "test: required key in the query",
    key: { env: "UPSTREAM_NASS_KEY", query: "key" },
  },
  arxiv: { url: "https://export.arxiv.org/api", terms: "test: an XML API" },
  "semantic-scholar": {
    url: "https://api.semanticscholar.org/graph/v1",
    terms: "test: optional key in a header",
    key: { env: "UPSTREAM_SEMANTIC_SCHOLAR_KEY", header: "x-api-key", optional: true },
  },
  "alternative-me": { url: "https://api.alternative.me", terms: "test: keyless JSON" },
  "ofac-sdn": {
    url: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports",
    terms: "test: a bulk download behind redirects",
    maxBytes: 150_000_000,
    timeoutMs: 120_000,
    maxRedirections: 3,
  },
});
