import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

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

const o = v.optional;
const Figures = <S extends v.GenericSchema>(value: S) => o(v.record(v.string(), value));
const Relationship = o(v.object({ data: v.nullable(v.object({ id: v.string() })) }));
/** What the code reads of a GeckoTerminal pool (JSON:API). */
const GeckoPool = v.object({
  id: v.string(),
  attributes: v.object({
    address: v.string(),
    name: v.string(),
    pool_created_at: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
    base_token_price_usd: v.nullable(v.string()),
    price_change_percentage: Figures(v.nullable(v.string())),
    transactions: Figures(v.object({ buys: v.number(), sells: v.number() })),
    volume_usd: Figures(v.nullable(v.string())),
    reserve_in_usd: v.nullable(v.string()),
  }),
  relationships: v.object({ dex: Relationship, base_token: Relationship, quote_token: Relationship }),
});

const afterUnderscore = (id: string | undefined) => (id ? id.slice(id.indexOf("_") + 1) : null);

/** GET a GeckoTerminal pool list (JSON:API): trending_pools, new_pools. */
export async function geckoPools(
  api: Upstream,
  path: string,
  query: Record<string, string | number> = {},
): Promise<DexPool[]> {
  const body = await api.json(path, v.object({ data: v.array(GeckoPool) }), { query, notFoundAs404: true });
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

const Token = v.object({ address: v.string(), symbol: v.string() });
/** What the code reads of a DexScreener pair. */
const DexscreenerPair = v.object({
  chainId: v.string(),
  dexId: v.string(),
  url: v.string(),
  pairAddress: v.string(),
  baseToken: Token,
  quoteToken: Token,
  priceUsd: o(v.string()),
  txns: Figures(v.object({ buys: v.number(), sells: v.number() })),
  volume: Figures(v.number()),
  priceChange: Figures(v.number()),
  liquidity: o(v.object({ usd: o(v.number()) })),
  /** Unix milliseconds. */
  pairCreatedAt: o(v.pipe(v.number(), v.minValue(0), v.maxValue(8.64e15))),
});
export type DexscreenerPair = v.InferOutput<typeof DexscreenerPair>;

/** GET /tokens/v1/{chainId}/{addresses}: every pair of up to 30 tokens. */
export async function dexscreenerTokenPairs(
  api: Upstream,
  chainId: string,
  addresses: string[],
): Promise<DexscreenerPair[]> {
  return api.json(`/tokens/v1/${chainId}/${addresses.slice(0, 30).join(",")}`, v.array(DexscreenerPair));
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
