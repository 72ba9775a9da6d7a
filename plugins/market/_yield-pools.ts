import * as v from "valibot";
import { canonicalChain, chainSlug, poolUrl, type YieldPool } from "./_defillama.ts";

export const Pool = v.object({
  id: v.pipe(v.string(), v.description("DefiLlama pool id")),
  project: v.string(),
  chain: v.string(),
  symbol: v.string(),
  tvlUsd: v.number(),
  apy: v.nullable(v.pipe(v.number(), v.description("Percent, base + reward"))),
  apyBase: v.nullable(v.number()),
  apyReward: v.nullable(v.number()),
  apyMean30d: v.nullable(v.number()),
  stablecoin: v.boolean(),
  ilRisk: v.string(),
  exposure: v.string(),
  poolMeta: v.nullable(v.string()),
  url: v.string(),
});

export const toPool = (p: YieldPool): v.InferOutput<typeof Pool> => ({
  id: p.pool,
  project: p.project,
  chain: p.chain,
  symbol: p.symbol,
  tvlUsd: p.tvlUsd,
  apy: p.apy,
  apyBase: p.apyBase,
  apyReward: p.apyReward,
  apyMean30d: p.apyMean30d ?? null,
  stablecoin: p.stablecoin,
  ilRisk: p.ilRisk,
  exposure: p.exposure,
  poolMeta: p.poolMeta ?? null,
  url: poolUrl(p.pool),
});

/** Pools on the chain (any chain when unset) with at least minTvl, outliers left out. */
export const eligiblePools = (pools: YieldPool[], chain: string | undefined, minTvl: number) =>
  pools.filter(
    (p) =>
      !p.outlier && p.apy !== null && p.tvlUsd >= minTvl && (!chain || chainSlug(p.chain) === canonicalChain(chain)),
  );
