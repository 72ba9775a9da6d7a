import * as v from "valibot";
import type { Chain, PublicClient } from "viem";
import type { Upstream, UpstreamEntry } from "../../core/endpoint.ts";
import { chainClient } from "../../core/runtime/chain-client.ts";

type ViemChainName = keyof typeof import("viem/chains");

/** What the service knows about one EVM network it reads. */
export interface ChainInfo {
  /** Lowercase network slug, the `chain` parameter. */
  slug: string;
  id: number;
  /** The chain's export in viem/chains (read with `viemChain`). */
  viemName: ViemChainName;
  /** Public JSON-RPC nodes used when `UPSTREAM_<SLUG>_RPC_URL` is not set, in order of preference. */
  publicRpcs: string[];
  /** Blockscout upstream name for what a node cannot answer (explorer indexes), when the chain has one. */
  blockscout?: string;
  /** DefiLlama's coin prefix (`ethereum:0x…`); testnets have no prices. */
  llama?: string;
  /** CoinGecko id of the native coin, priced through DefiLlama as `coingecko:<id>`. */
  nativePriceId?: string;
}

// Public nodes: viem's default first, then PublicNode's keyless mirror. Production should set UPSTREAM_<SLUG>_RPC_URL.
export const chains = [
  {
    slug: "ethereum",
    id: 1,
    viemName: "mainnet",
    publicRpcs: ["https://ethereum-rpc.publicnode.com", "https://eth.merkle.io"],
    blockscout: "blockscout-ethereum",
    llama: "ethereum",
    nativePriceId: "ethereum",
  },
  {
    slug: "base",
    id: 8453,
    viemName: "base",
    publicRpcs: ["https://mainnet.base.org", "https://base-rpc.publicnode.com"],
    blockscout: "blockscout-base",
    llama: "base",
    nativePriceId: "ethereum",
  },
  {
    slug: "optimism",
    id: 10,
    viemName: "optimism",
    publicRpcs: ["https://mainnet.optimism.io", "https://optimism-rpc.publicnode.com"],
    blockscout: "blockscout-optimism",
    llama: "optimism",
    nativePriceId: "ethereum",
  },
  {
    slug: "arbitrum",
    id: 42161,
    viemName: "arbitrum",
    publicRpcs: ["https://arb1.arbitrum.io/rpc", "https://arbitrum-one-rpc.publicnode.com"],
    blockscout: "blockscout-arbitrum",
    llama: "arbitrum",
    nativePriceId: "ethereum",
  },
  {
    slug: "polygon",
    id: 137,
    viemName: "polygon",
    publicRpcs: ["https://polygon-bor-rpc.publicnode.com", "https://polygon.drpc.org"],
    blockscout: "blockscout-polygon",
    llama: "polygon",
    nativePriceId: "polygon-ecosystem-token",
  },
  {
    slug: "bsc",
    id: 56,
    viemName: "bsc",
    publicRpcs: ["https://bsc-rpc.publicnode.com", "https://bsc-dataseed.bnbchain.org"],
    llama: "bsc",
    nativePriceId: "binancecoin",
  },
  {
    slug: "avalanche",
    id: 43114,
    viemName: "avalanche",
    publicRpcs: ["https://api.avax.network/ext/bc/C/rpc", "https://avalanche-c-chain-rpc.publicnode.com"],
    llama: "avax",
    nativePriceId: "avalanche-2",
  },
  {
    slug: "gnosis",
    id: 100,
    viemName: "gnosis",
    publicRpcs: ["https://rpc.gnosischain.com", "https://gnosis-rpc.publicnode.com"],
    blockscout: "blockscout-gnosis",
    llama: "xdai",
    nativePriceId: "xdai",
  },
  {
    slug: "base-sepolia",
    id: 84532,
    viemName: "baseSepolia",
    publicRpcs: ["https://sepolia.base.org", "https://base-sepolia-rpc.publicnode.com"],
    blockscout: "blockscout-base-sepolia",
  },
  {
    slug: "sepolia",
    id: 11155111,
    viemName: "sepolia",
    publicRpcs: ["https://ethereum-sepolia-rpc.publicnode.com", "https://sepolia.drpc.org"],
  },
] as const satisfies readonly ChainInfo[];

export type ChainSlug = (typeof chains)[number]["slug"];
export const chainSlugs = chains.map((c) => c.slug) as ChainSlug[];

const bySlug = new Map<string, ChainInfo>(chains.map((c) => [c.slug, c]));

export function chainInfo(slug: ChainSlug): ChainInfo {
  return bySlug.get(slug)!;
}

/** The `chain` input: an unknown slug is a 400 that lists the supported ones. */
export const chainField = (fallbackSlug: ChainSlug = "ethereum") =>
  v.optional(
    v.pipe(
      v.picklist(chainSlugs, `must be one of: ${chainSlugs.join(", ")}`),
      v.description(`Lowercase network slug: ${chainSlugs.join(", ")}`),
    ),
    fallbackSlug,
  );

/** The upstream holding a chain's node: `base-sepolia-rpc`, configured with `UPSTREAM_BASE_SEPOLIA_RPC_URL`. */
export const rpcUpstream = <S extends ChainSlug>(slug: S) => `${slug}-rpc` as const;
export type ChainRpc = ReturnType<typeof rpcUpstream<ChainSlug>>;
/** Every chain's node: what an endpoint that reads any chain lists in `upstreams`. */
export const chainRpcs = chainSlugs.map(rpcUpstream) as readonly ChainRpc[];

/** A JSON-RPC upstream per chain: its public nodes, tried in order, until configuration names one. */
export const chainUpstreams = Object.fromEntries(
  chains.map((c): [ChainRpc, UpstreamEntry] => [
    rpcUpstream(c.slug),
    {
      url: c.publicRpcs[0],
      mirrors: c.publicRpcs.slice(1),
      commercialUse: "the node operator's terms",
      rateLimit: "public nodes limit per IP (unpublished)",
      terms: `JSON-RPC node of ${c.slug} (chain id ${c.id}): public keyless nodes by default, rate-limited; set your own with UPSTREAM_${c.slug.toUpperCase().replace(/-/g, "_")}_RPC_URL`,
      // viem's own cap for a node's answer.
      maxBytes: 10_485_760,
      timeoutMs: 8_000,
    },
  ]),
) as Record<ChainRpc, UpstreamEntry>;

let definitions: Promise<typeof import("viem/chains")> | undefined;

/** viem's definition of the chain. viem/chains holds every chain viem knows (about 700 modules): loaded on first use, not at boot. */
export async function viemChain(slug: ChainSlug): Promise<Chain> {
  return (await (definitions ??= import("viem/chains")))[chainInfo(slug).viemName] as Chain;
}

/**
 * A viem client for one chain, over this call's client of the chain's upstream. No multicall batching: viem
 * would route getBalance through Multicall3, which fails below its deployment block.
 */
export async function clientFor(upstream: (name: ChainRpc) => Upstream, slug: ChainSlug): Promise<PublicClient> {
  return chainClient(upstream(rpcUpstream(slug)), await viemChain(slug));
}
