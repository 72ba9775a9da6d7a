import * as v from "valibot";
import { isHttpUrl, listSetting } from "../../core/runtime/settings.ts";
import { createPublicClient, fallback, http, type Chain, type PublicClient } from "viem";
import { checkedRpcFetch } from "./_rpc-fetch.ts";

type ViemChainName = keyof typeof import("viem/chains");

/** What the service knows about one EVM network it reads. */
export interface ChainInfo {
  /** Lowercase network slug, the `chain` parameter. */
  slug: string;
  id: number;
  /** The chain's export in viem/chains (read with `viemChain`). */
  viemName: ViemChainName;
  /** Public JSON-RPC nodes used when `CHAIN_RPC_<SLUG>` is not set, in order of preference. */
  publicRpcs: string[];
  /** Blockscout upstream name for what a node cannot answer (explorer indexes), when the chain has one. */
  blockscout?: string;
  /** DefiLlama's coin prefix (`ethereum:0x…`); testnets have no prices. */
  llama?: string;
  /** CoinGecko id of the native coin, priced through DefiLlama as `coingecko:<id>`. */
  nativePriceId?: string;
}

// Public nodes: viem's default first, then PublicNode's keyless mirror. Production should set CHAIN_RPC_<SLUG>.
export const chains = [
  { slug: "ethereum", id: 1, viemName: "mainnet", publicRpcs: ["https://ethereum-rpc.publicnode.com", "https://eth.merkle.io"], blockscout: "blockscout-ethereum", llama: "ethereum", nativePriceId: "ethereum" },
  { slug: "base", id: 8453, viemName: "base", publicRpcs: ["https://mainnet.base.org", "https://base-rpc.publicnode.com"], blockscout: "blockscout-base", llama: "base", nativePriceId: "ethereum" },
  { slug: "optimism", id: 10, viemName: "optimism", publicRpcs: ["https://mainnet.optimism.io", "https://optimism-rpc.publicnode.com"], blockscout: "blockscout-optimism", llama: "optimism", nativePriceId: "ethereum" },
  { slug: "arbitrum", id: 42161, viemName: "arbitrum", publicRpcs: ["https://arb1.arbitrum.io/rpc", "https://arbitrum-one-rpc.publicnode.com"], blockscout: "blockscout-arbitrum", llama: "arbitrum", nativePriceId: "ethereum" },
  { slug: "polygon", id: 137, viemName: "polygon", publicRpcs: ["https://polygon-bor-rpc.publicnode.com", "https://polygon.drpc.org"], blockscout: "blockscout-polygon", llama: "polygon", nativePriceId: "polygon-ecosystem-token" },
  { slug: "bsc", id: 56, viemName: "bsc", publicRpcs: ["https://bsc-rpc.publicnode.com", "https://bsc-dataseed.bnbchain.org"], llama: "bsc", nativePriceId: "binancecoin" },
  { slug: "avalanche", id: 43114, viemName: "avalanche", publicRpcs: ["https://api.avax.network/ext/bc/C/rpc", "https://avalanche-c-chain-rpc.publicnode.com"], llama: "avax", nativePriceId: "avalanche-2" },
  { slug: "gnosis", id: 100, viemName: "gnosis", publicRpcs: ["https://rpc.gnosischain.com", "https://gnosis-rpc.publicnode.com"], blockscout: "blockscout-gnosis", llama: "xdai", nativePriceId: "xdai" },
  { slug: "base-sepolia", id: 84532, viemName: "baseSepolia", publicRpcs: ["https://sepolia.base.org", "https://base-sepolia-rpc.publicnode.com"], blockscout: "blockscout-base-sepolia" },
  { slug: "sepolia", id: 11155111, viemName: "sepolia", publicRpcs: ["https://ethereum-sepolia-rpc.publicnode.com", "https://sepolia.drpc.org"] },
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

/** `CHAIN_RPC_BASE_SEPOLIA` for `base-sepolia`: comma-separated URLs, tried in order. */
export const rpcEnvName = (slug: string) => `CHAIN_RPC_${slug.toUpperCase().replace(/-/g, "_")}`;

export function rpcUrls(slug: ChainSlug, env = process.env): string[] {
  const configured = listSetting(rpcEnvName(slug), env, isHttpUrl, "comma-separated http(s) URLs");
  return configured.length ? configured : [...chainInfo(slug).publicRpcs];
}

/** Every CHAIN_RPC_<SLUG>, read at boot (definePlugin's settings). */
export const rpcSettings = chainSlugs.map((slug) => (env: NodeJS.ProcessEnv) => rpcUrls(slug, env));

let definitions: Promise<typeof import("viem/chains")> | undefined;

/** viem's definition of the chain. viem/chains holds every chain viem knows (about 700 modules): loaded on first use, not at boot. */
export async function viemChain(slug: ChainSlug): Promise<Chain> {
  return (await (definitions ??= import("viem/chains")))[chainInfo(slug).viemName] as Chain;
}

const clients = new Map<string, PublicClient>();

/** One public client per chain and RPC list, created on first use and shared by every endpoint. */
export async function clientFor(slug: ChainSlug): Promise<PublicClient> {
  const urls = rpcUrls(slug);
  const key = `${slug} ${urls.join(",")}`;
  let client = clients.get(key);
  if (!client) {
    const chain = await viemChain(slug);
    const transports = urls.map((url) => http(url, { timeout: 8_000, retryCount: 1, batch: { wait: 0 }, fetchFn: checkedRpcFetch }));
    client = createPublicClient({
      chain,
      // No multicall batching: viem would route getBalance through Multicall3, which fails below its deployment block.
      transport: transports.length === 1 ? transports[0] : fallback(transports, { rank: false }),
    }) as PublicClient;
    // A concurrent first call may have made one while the definitions loaded: keep the first.
    client = clients.get(key) ?? client;
    clients.set(key, client);
  }
  return client;
}
