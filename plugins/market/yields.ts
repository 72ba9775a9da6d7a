import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import {
  canonicalChain,
  ChainSlug,
  chainSlug,
  LLAMA_YIELDS,
  poolUrl,
  yieldPools,
  type YieldPool,
} from "./_defillama.ts";

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

export default defineEndpoint({
  name: "yields",
  method: "GET",
  price: "$0.005",
  summary: "Top DeFi pool yields by APY from DefiLlama, filtered by chain and minimum TVL",
  description:
    "From DefiLlama Yields (yields.llama.fi/pools). Pools DefiLlama flags as APY outliers are left out. APYs are percentages as DefiLlama gives them.",
  input: v.object({
    chain: v.optional(
      v.pipe(ChainSlug, v.description("Chain slug: ethereum, base, arbitrum, solana...; all chains when unset")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Pools to return, 1-100")),
      25,
    ),
    minTvl: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1e13), v.description("Minimum TVL in USD")),
      1_000_000,
    ),
  }),
  output: v.object({ chain: v.nullable(v.string()), minTvl: v.number(), matched: v.number(), pools: v.array(Pool) }),
  example: {
    input: { chain: "ethereum", limit: 1, minTvl: 1_000_000 },
    output: {
      chain: "ethereum",
      minTvl: 1_000_000,
      matched: 412,
      pools: [
        {
          id: "747c1d2a-c668-4682-b9f9-296708a3dd90",
          project: "lido",
          chain: "Ethereum",
          symbol: "STETH",
          tvlUsd: 24317815734,
          apy: 2.91,
          apyBase: 2.91,
          apyReward: null,
          apyMean30d: 2.99,
          stablecoin: false,
          ilRisk: "no",
          exposure: "single",
          poolMeta: null,
          url: "https://defillama.com/yields/pool/747c1d2a-c668-4682-b9f9-296708a3dd90",
        },
      ],
    },
  },
  cacheTtl: 600,
  upstreams: [LLAMA_YIELDS],
  async handler({ input, upstream }) {
    const matched = eligiblePools(await yieldPools(upstream(LLAMA_YIELDS)), input.chain, input.minTvl).sort(
      (a, b) => (b.apy ?? 0) - (a.apy ?? 0),
    );
    return {
      chain: input.chain ?? null,
      minTvl: input.minTvl,
      matched: matched.length,
      pools: matched.slice(0, input.limit).map(toPool),
    };
  },
});
