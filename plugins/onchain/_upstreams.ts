import { defineUpstreams } from "../../core/endpoint.ts";
import { marketUpstreams } from "../market/_upstreams.ts";
import { chainUpstreams } from "./_chains.ts";

const { "defillama-coins": defillamaCoins, geckoterminal } = marketUpstreams;

/** The onchain family's data sources, a JSON-RPC node per chain among them; compliance lists some of these entries too. */
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
    terms: "Blockscout per-instance API, about 5 req/s per IP; PRO key planned",
  },
  "blockscout-base": {
    url: "https://base.blockscout.com",
    terms: "Blockscout per-instance API, about 5 req/s per IP; PRO key planned",
  },
  "blockscout-optimism": {
    url: "https://optimism.blockscout.com",
    terms: "Blockscout per-instance API, about 5 req/s per IP",
  },
  "blockscout-arbitrum": {
    url: "https://arbitrum.blockscout.com",
    terms: "Blockscout per-instance API, about 5 req/s per IP",
  },
  "blockscout-polygon": {
    url: "https://polygon.blockscout.com",
    terms: "Blockscout per-instance API, about 5 req/s per IP",
  },
  "blockscout-gnosis": {
    url: "https://gnosis.blockscout.com",
    terms: "Blockscout per-instance API, about 5 req/s per IP",
  },
  "blockscout-base-sepolia": {
    url: "https://base-sepolia.blockscout.com",
    terms: "Blockscout per-instance API, about 5 req/s per IP",
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
