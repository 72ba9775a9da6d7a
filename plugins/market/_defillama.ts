import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export const LLAMA_YIELDS = "defillama-yields";

const n = v.nullable(v.number());
/** What the code reads of a pool in DefiLlama's yields list. */
const YieldPool = v.object({
  pool: v.string(),
  chain: v.string(),
  project: v.string(),
  symbol: v.string(),
  tvlUsd: v.number(),
  apy: n,
  apyBase: n,
  apyReward: n,
  apyMean30d: n,
  stablecoin: v.boolean(),
  ilRisk: v.string(),
  exposure: v.string(),
  outlier: v.boolean(),
  sigma: n,
  count: n,
  predictions: v.nullish(
    v.object({ predictedClass: v.nullable(v.string()), predictedProbability: v.nullable(v.number()) }),
  ),
  poolMeta: v.nullable(v.string()),
});
export type YieldPool = v.InferOutput<typeof YieldPool>;

/** GET https://yields.llama.fi/pools: every pool DefiLlama tracks (a large file: filter after one read). */
export async function yieldPools(api: Upstream): Promise<YieldPool[]> {
  return (await api.json("/pools", v.object({ data: v.array(YieldPool) }))).data;
}

/** DefiLlama's chain display names ("Ethereum", "zkSync Era") as lowercase slugs ("ethereum", "zksync-era"). */
export const chainSlug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

const aliases: Record<string, string> = {
  eth: "ethereum",
  mainnet: "ethereum",
  bnb: "bsc",
  "binance-smart-chain": "bsc",
  matic: "polygon",
  arb: "arbitrum",
  op: "optimism",
  avax: "avalanche",
};
export const canonicalChain = (slug: string) => aliases[slug] ?? slug;

export const ChainSlug = v.pipe(
  v.string(),
  v.maxLength(40),
  v.regex(/^[a-z0-9-]+$/, "a lowercase chain slug such as ethereum, base or arbitrum"),
);

export const poolUrl = (pool: string) => `https://defillama.com/yields/pool/${pool}`;
