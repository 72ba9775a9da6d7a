import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const LLAMA_YIELDS = "defillama-yields";

export interface YieldPool {
  pool: string;
  chain: string;
  project: string;
  symbol: string;
  tvlUsd: number;
  apy: number | null;
  apyBase: number | null;
  apyReward: number | null;
  apyMean30d: number | null;
  stablecoin: boolean;
  ilRisk: string;
  exposure: string;
  outlier: boolean;
  sigma: number | null;
  count: number | null;
  predictions?: { predictedClass: string | null; predictedProbability: number | null } | null;
  poolMeta: string | null;
}

/** GET https://yields.llama.fi/pools: every pool DefiLlama tracks (a large file: filter after one read). */
export async function yieldPools(api: Upstream): Promise<YieldPool[]> {
  const body = await api.json<{ status: string; data: YieldPool[] }>("/pools");
  if (!Array.isArray(body?.data)) throw upstreamFailed(LLAMA_YIELDS, "DefiLlama pools changed shape");
  return body.data;
}

/** DefiLlama's chain display names ("Ethereum", "zkSync Era") as lowercase slugs ("ethereum", "zksync-era"). */
export const chainSlug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

const aliases: Record<string, string> = { eth: "ethereum", mainnet: "ethereum", bnb: "bsc", "binance-smart-chain": "bsc", matic: "polygon", arb: "arbitrum", op: "optimism", avax: "avalanche" };
export const canonicalChain = (slug: string) => aliases[slug] ?? slug;

export const ChainSlug = v.pipe(v.string(), v.maxLength(40), v.regex(/^[a-z0-9-]+$/, "a lowercase chain slug such as ethereum, base or arbitrum"));

export const poolUrl = (pool: string) => `https://defillama.com/yields/pool/${pool}`;
