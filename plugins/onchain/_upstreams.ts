import { defineUpstreams } from "../../core/endpoint.ts";
import { marketUpstreams } from "../market/_upstreams.ts";
import { chainUpstreams } from "./_chains.ts";

const { "defillama-coins": defillamaCoins, geckoterminal } = marketUpstreams;

/** The onchain family's data sources, a JSON-RPC node per chain among them; compliance lists some of these entries too. */
/** Blockscout's PRO API serves every hosted chain under `/<chain id>/api/v2` with one key (https://docs.blockscout.com/devs/pro-api). */
const blockscoutPro = { keyEnv: "BLOCKSCOUT_PRO_KEY", urlEnv: "BLOCKSCOUT_PRO_URL", url: "https://api.blockscout.com" };
const blockscoutTerms =
  "Blockscout: the per-instance API is keyless at about 5 req/s per IP; with BLOCKSCOUT_PRO_KEY every chain goes to the PRO API (api.blockscout.com/<chain id>, free plan 100K credits a day at 5 req/s, paid plans more); data free to use";

export const onchainUpstreams = defineUpstreams({
  goplus: {
    url: "https://api.gopluslabs.io/api",
    terms: "GoPlus Security API terms; about 30 req/min keyless (observed)",
  },
  "honeypot-is": {
    url: "https://api.honeypot.is",
    terms: "honeypot.is API; limits unpublished; Ethereum, BSC and Base",
  },
  rugcheck: {
    url: "https://api.rugcheck.xyz/v1",
    terms: "RugCheck API; summary route keyless (unverified), full reports need a key",
    key: { env: "UPSTREAM_RUGCHECK_KEY", header: "x-api-key", optional: true },
  },
  "blockscout-ethereum": {
    url: "https://eth.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_ETHEREUM_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/1" },
  },
  "blockscout-base": {
    url: "https://base.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_BASE_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/8453" },
  },
  "blockscout-optimism": {
    url: "https://optimism.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_OPTIMISM_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/10" },
  },
  "blockscout-arbitrum": {
    url: "https://arbitrum.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_ARBITRUM_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/42161" },
  },
  "blockscout-polygon": {
    url: "https://polygon.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_POLYGON_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/137" },
  },
  "blockscout-gnosis": {
    url: "https://gnosis.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_GNOSIS_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/100" },
  },
  "blockscout-base-sepolia": {
    url: "https://base-sepolia.blockscout.com",
    terms: blockscoutTerms,
    key: { env: "UPSTREAM_BLOCKSCOUT_BASE_SEPOLIA_KEY", query: "apikey", optional: true },
    gateway: { ...blockscoutPro, path: "/84532" },
  },
  sourcify: {
    url: "https://sourcify.dev/server",
    terms: "Sourcify, verified sources under their own licences; limits unpublished",
  },
  "sourcify-4byte": {
    url: "https://api.4byte.sourcify.dev/signature-database/v1",
    terms: "Sourcify signature database; limits unpublished",
  },
  "snapshot-hub": {
    url: "https://hub.snapshot.org",
    terms: "Snapshot hub GraphQL API, keyless; about 60 req/min anonymous (an API key raises it)",
  },
  "metamask-phishing": {
    url: "https://raw.githubusercontent.com/MetaMask/eth-phishing-detect/main",
    terms:
      "MetaMask eth-phishing-detect list (src/config.json on GitHub, keyless; licence in the repository); several MB, fetched at most hourly",
    maxBytes: 32_000_000,
    timeoutMs: 30_000,
  },
  ...chainUpstreams,
  "defillama-coins": defillamaCoins,
  geckoterminal,
});
