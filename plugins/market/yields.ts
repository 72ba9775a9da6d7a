import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ChainSlug, LLAMA_YIELDS, yieldPools } from "./_defillama.ts";
import { eligiblePools, Pool, toPool } from "./_yield-pools.ts";

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
