import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const GECKOTERMINAL = "geckoterminal";
export const DEXSCREENER = "dexscreener";

/** Our chain slugs as GeckoTerminal network ids and DexScreener chain ids. */
export const DEX_CHAINS: Record<string, { gecko: string; dexscreener: string }> = {
  ethereum: { gecko: "eth", dexscreener: "ethereum" },
  base: { gecko: "base", dexscreener: "base" },
  bsc: { gecko: "bsc", dexscreener: "bsc" },
  solana: { gecko: "solana", dexscreener: "solana" },
  arbitrum: { gecko: "arbitrum", dexscreener: "arbitrum" },
  polygon: { gecko: "polygon_pos", dexscreener: "polygon" },
  optimism: { gecko: "optimism", dexscreener: "optimism" },
  avalanche: { gecko: "avax", dexscreener: "avalanche" },
};
const chainOfGecko = new Map(Object.entries(DEX_CHAINS).map(([slug, ids]) => [ids.gecko, slug]));
const chainOfDexscreener = new Map(Object.entries(DEX_CHAINS).map(([slug, ids]) => [ids.dexscreener, slug]));

export const DexPool = v.object({
  chain: v.pipe(v.string(), v.description("Chain slug (the upstream's id when we have no slug for it)")),
  pool: v.pipe(v.string(), v.description("Pool (pair) address")),
  name: v.string(),
  dex: v.nullable(v.string()),
  baseToken: v.pipe(v.string(), v.description("Base token address")),
  quoteToken: v.nullable(v.string()),
  priceUsd: v.nullable(v.string()),
  priceChange1hPercent: v.nullable(v.string()),
  priceChange24hPercent: v.nullable(v.string()),
  volume24hUsd: v.nullable(v.string()),
  liquidityUsd: v.nullable(v.string()),
  txns24h: v.nullable(v.number()),
  createdAt: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
  url: v.string(),
  source: v.string(),
});
export type DexPool = v.InferOutput<typeof DexPool>;

interface GeckoPool {
  id: string;
  attributes: {
    address: string;
    name: string;
    pool_created_at: string | null;
    base_token_price_usd: string | null;
    price_change_percentage?: Record<string, string | null>;
    transactions?: Record<string, { buys: number; sells: number }>;
    volume_usd?: Record<string, string | null>;
    reserve_in_usd: string | null;
  };
  relationships: Record<string, { data: { id: string } | null } | undefined>;
}

const afterUnderscore = (id: string | undefined) => (id ? id.slice(id.indexOf("_") + 1) : null);

/** GET a GeckoTerminal pool list (JSON:API): trending_pools, new_pools. */
export async function geckoPools(api: Upstream, path: string, query: Record<string, string | number> = {}): Promise<DexPool[]> {
  const body = await api.json<{ data: GeckoPool[] }>(path, { query, notFoundAs404: true });
  if (!Array.isArray(body?.data)) throw upstreamFailed(GECKOTERMINAL, "GeckoTerminal pools changed shape");
  return body.data.map((p) => {
    const a = p.attributes;
    const network = p.id.slice(0, p.id.indexOf("_"));
    const day = a.transactions?.h24;
    return {
      chain: chainOfGecko.get(network) ?? network,
      pool: a.address,
      name: a.name,
      dex: p.relationships.dex?.data?.id ?? null,
      baseToken: afterUnderscore(p.relationships.base_token?.data?.id) ?? "",
      quoteToken: afterUnderscore(p.relationships.quote_token?.data?.id),
      priceUsd: a.base_token_price_usd,
      priceChange1hPercent: a.price_change_percentage?.h1 ?? null,
      priceChange24hPercent: a.price_change_percentage?.h24 ?? null,
      volume24hUsd: a.volume_usd?.h24 ?? null,
      liquidityUsd: a.reserve_in_usd,
      txns24h: day ? day.buys + day.sells : null,
      createdAt: a.pool_created_at ? new Date(a.pool_created_at).toISOString() : null,
      url: `https://www.geckoterminal.com/${network}/pools/${a.address}`,
      source: GECKOTERMINAL,
    };
  });
}

export interface DexscreenerPair {
  chainId: string;
  dexId: string;
  url: string;
  pairAddress: string;
  baseToken: { address: string; name: string; symbol: string };
  quoteToken: { address: string; name: string; symbol: string };
  priceUsd?: string;
  txns?: Record<string, { buys: number; sells: number }>;
  volume?: Record<string, number>;
  priceChange?: Record<string, number>;
  liquidity?: { usd?: number };
  pairCreatedAt?: number;
}

/** GET /tokens/v1/{chainId}/{addresses}: every pair of up to 30 tokens. */
export async function dexscreenerTokenPairs(api: Upstream, chainId: string, addresses: string[]): Promise<DexscreenerPair[]> {
  const body = await api.json<DexscreenerPair[]>(`/tokens/v1/${chainId}/${addresses.slice(0, 30).join(",")}`);
  if (!Array.isArray(body)) throw upstreamFailed(DEXSCREENER, "DexScreener tokens changed shape");
  return body;
}

const str = (x: number | undefined) => (x === undefined ? null : String(x));

export function fromDexscreener(p: DexscreenerPair): DexPool {
  const day = p.txns?.h24;
  return {
    chain: chainOfDexscreener.get(p.chainId) ?? p.chainId,
    pool: p.pairAddress,
    name: `${p.baseToken.symbol} / ${p.quoteToken.symbol}`,
    dex: p.dexId,
    baseToken: p.baseToken.address,
    quoteToken: p.quoteToken.address,
    priceUsd: p.priceUsd ?? null,
    priceChange1hPercent: str(p.priceChange?.h1),
    priceChange24hPercent: str(p.priceChange?.h24),
    volume24hUsd: str(p.volume?.h24),
    liquidityUsd: str(p.liquidity?.usd),
    txns24h: day ? day.buys + day.sells : null,
    createdAt: p.pairCreatedAt ? new Date(p.pairCreatedAt).toISOString() : null,
    url: p.url,
    source: DEXSCREENER,
  };
}

/** The deepest pair of each token among DexScreener's pairs. */
export function deepestPairs(pairs: DexscreenerPair[]): Map<string, DexscreenerPair> {
  const best = new Map<string, DexscreenerPair>();
  for (const p of pairs) {
    const key = `${p.chainId}:${p.baseToken.address.toLowerCase()}`;
    const current = best.get(key);
    if (!current || (p.liquidity?.usd ?? 0) > (current.liquidity?.usd ?? 0)) best.set(key, p);
  }
  return best;
}
