import { defineUpstreams } from "../../core/endpoint.ts";
import { sharedUpstreams } from "../_shared/upstreams.ts";
import { chainUpstreams } from "../_shared/chains.ts";

/** Blockscout's PRO API serves every hosted chain under `/<chain id>/api/v2` with one key (https://docs.blockscout.com/devs/pro-api). */
const blockscoutPro = { keyEnv: "BLOCKSCOUT_PRO_KEY", urlEnv: "BLOCKSCOUT_PRO_URL", url: "https://api.blockscout.com" };
const blockscoutTerms =
  "Blockscout: the per-instance API is keyless at about 5 req/s per IP; with BLOCKSCOUT_PRO_KEY every chain goes to the PRO API (api.blockscout.com/<chain id>, free plan 100K credits a day at 5 req/s, paid plans more); data free to use";

/** The onchain family's data sources, a JSON-RPC node per chain among them. */
export const onchainUpstreams = defineUpstreams({
  goplus: sharedUpstreams["goplus"],
  "honeypot-is": {
    commercialUse: "honeypot.is terms",
    rateLimit: "unpublished",
    url: "https://api.honeypot.is",
    terms: "honeypot.is API; limits unpublished; Ethereum, BSC and Base",
  },
  rugcheck: {
    commercialUse: "RugCheck terms",
    rateLimit: "unpublished",
    url: "https://api.rugcheck.xyz/v1",
    terms: "RugCheck API; summary route keyless (unverified), full reports need a key",
    key: { env: "UPSTREAM_RUGCHECK_KEY", header: "x-api-key", optional: true },
  },
  "blockscout-ethereum": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://eth.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_ETHEREUM_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/1" },
  },
  "blockscout-base": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://base.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_BASE_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/8453" },
  },
  "blockscout-optimism": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://optimism.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_OPTIMISM_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/10" },
  },
  "blockscout-arbitrum": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://arbitrum.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_ARBITRUM_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/42161" },
  },
  "blockscout-polygon": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://polygon.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_POLYGON_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/137" },
  },
  "blockscout-gnosis": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://gnosis.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_GNOSIS_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/100" },
  },
  "blockscout-base-sepolia": {
    commercialUse: "data free to use",
    rateLimit: "5 req/s keyless per IP; PRO free plan 100K credits/day at 5 req/s",
    url: "https://base-sepolia.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_BASE_SEPOLIA_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/84532" },
  },
  sourcify: {
    commercialUse: "sources under their own licences",
    rateLimit: "unpublished",
    url: "https://sourcify.dev/server",
    terms: "Sourcify, verified sources under their own licences; limits unpublished",
  },
  "sourcify-4byte": {
    commercialUse: "open",
    rateLimit: "unpublished",
    url: "https://api.4byte.sourcify.dev/signature-database/v1",
    terms: "Sourcify signature database; limits unpublished",
  },
  "snapshot-hub": {
    commercialUse: "Snapshot terms",
    rateLimit: "about 60/min anonymous",
    url: "https://hub.snapshot.org",
    terms: "Snapshot hub GraphQL API, keyless; about 60 req/min anonymous (an API key raises it)",
  },
  "metamask-phishing": {
    commercialUse: "licence in the repository",
    rateLimit: "fetched at most hourly",
    url: "https://raw.githubusercontent.com/MetaMask/eth-phishing-detect/main",
    terms:
      "MetaMask eth-phishing-detect list (src/config.json on GitHub, keyless; licence in the repository); several MB, fetched at most hourly",
    maxBytes: 32_000_000,
    timeoutMs: 30_000,
  },
  ...chainUpstreams,
  "defillama-coins": sharedUpstreams["defillama-coins"],
  geckoterminal: sharedUpstreams.geckoterminal,
});
