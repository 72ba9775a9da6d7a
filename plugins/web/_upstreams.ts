import { defineUpstreams } from "../../core/endpoint.ts";
import { sharedUpstreams } from "../_shared/upstreams.ts";

export const webUpstreams = defineUpstreams({
  "iana-rdap": sharedUpstreams["iana-rdap"],
  "pagespeed-insights": {
    commercialUse: "Google API terms",
    rateLimit: "heavily throttled keyless; 25,000/day with a key",
    url: "https://www.googleapis.com/pagespeedonline/v5",
    terms:
      "Google PageSpeed Insights API terms; keyless calls are heavily throttled, about 25,000/day with a free key; a run takes 10-30 s",
    key: { env: "UPSTREAM_PAGESPEED_INSIGHTS_KEY", query: "key", optional: true },
  },
  searxng: {
    commercialUse: "each queried engine's terms",
    rateLimit: "the operator's instance",
    terms:
      "A SearXNG instance the operator runs (JSON output enabled in its settings.yml), set with UPSTREAM_SEARXNG_URL: search is unmounted and verify-fact reads Wikipedia alone until it is; results are the queried engines', under their terms",
  },
  "wikipedia-api": sharedUpstreams["wikipedia-api"],
  "npm-registry": {
    commercialUse: "npm terms",
    rateLimit: "fair use",
    url: "https://registry.npmjs.org",
    terms: "npm public registry; fair use; full package documents can be tens of MB",
    maxBytes: 64_000_000,
  },
  "npm-downloads": {
    commercialUse: "npm terms",
    rateLimit: "fair use",
    url: "https://api.npmjs.org/downloads",
    terms: "npm download counts API; daily counts, 18 months of history; fair use",
  },
  pypi: {
    commercialUse: "PyPI terms",
    rateLimit: "fair use",
    url: "https://pypi.org/pypi",
    terms: "PyPI JSON API; fair use; metadata as each project publishes it",
  },
  osv: {
    commercialUse: "CC BY 4.0 per source",
    rateLimit: "unpublished",
    url: "https://api.osv.dev/v1",
    terms: "OSV.dev vulnerability database, CC BY 4.0 per source; no published limit",
  },
  "youtube-oembed": {
    commercialUse: "YouTube API Services terms",
    rateLimit: "unpublished",
    url: "https://www.youtube.com",
    terms: "YouTube oEmbed under the YouTube API Services terms; keyless; title, author and thumbnail only",
  },
  github: {
    commercialUse: "GitHub API terms",
    rateLimit: "60/h keyless, 5,000/h with a token",
    url: "https://api.github.com",
    terms:
      "GitHub REST API terms; 60 req/h per IP keyless, 5,000/h with a token; UPSTREAM_GITHUB_KEY holds the whole header value, `Bearer <token>`",
    key: { env: "UPSTREAM_GITHUB_KEY", header: "authorization", optional: true },
    headers: { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
  },
  "hn-algolia": {
    commercialUse: "HN Search terms",
    rateLimit: "about 10,000/h per IP",
    url: "https://hn.algolia.com/api/v1",
    terms:
      "HN Search by Algolia, keyless; about 10,000 req/h per IP (unofficial); pages through the first 1,000 hits only",
  },
  stackexchange: {
    commercialUse: "CC BY-SA: attribute",
    rateLimit: "300/day keyless, 10,000/day with an app key",
    url: "https://api.stackexchange.com/2.3",
    terms:
      "Stack Exchange API; 300 req/day per IP keyless, 10,000 with a free app key; content CC BY-SA, attribute; obey `backoff`",
    key: { env: "UPSTREAM_STACKEXCHANGE_KEY", query: "key", optional: true },
  },
  snapchain: {
    commercialUse: "public node",
    rateLimit: "unpublished",
    url: "https://snap.farcaster.xyz:3381/v1",
    terms: "Farcaster Snapchain node HTTP API, keyless; limits unpublished; the public node's policy may change",
  },
});
