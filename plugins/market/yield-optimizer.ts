import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ChainSlug, LLAMA_YIELDS, yieldPools, type YieldPool } from "./_defillama.ts";
import { Decimal } from "./_decimal.ts";
import { eligiblePools, Pool, toPool } from "./_yield-pools.ts";

/**
 * Risk-adjusted yield: base APY counts fully, reward APY half (reward tokens are usually sold), capped by
 * the 30-day mean so a one-day spike does not win; x0.75 with impermanent-loss risk, x0.9 when DefiLlama
 * predicts the APY will fall; pools with under 14 days of history are left out.
 */
function score(p: YieldPool): Decimal {
  const effective = new Decimal(p.apyBase ?? 0).plus(new Decimal(p.apyReward ?? 0).times(0.5));
  let s = p.apyMean30d === null ? effective : Decimal.min(effective, p.apyMean30d);
  if (p.ilRisk === "yes") s = s.times(0.75);
  if (p.predictions?.predictedClass === "Down") s = s.times(0.9);
  return s;
}

export default defineEndpoint({
  name: "yield-optimizer",
  method: "GET",
  price: "$0.05",
  summary: "DeFi pools ranked by a risk-adjusted yield score, with the reasons behind each score",
  description:
    "From DefiLlama Yields. Score = min(base APY + half the reward APY, 30-day mean APY), x0.75 for impermanent-loss risk, x0.9 when DefiLlama predicts a falling APY. " +
    "Outliers and pools with under 14 days of data are left out. Information, not advice.",
  input: v.object({
    chain: v.optional(v.pipe(ChainSlug, v.description("Chain slug; all chains when unset"))),
    stablecoinOnly: v.optional(v.pipe(v.boolean(), v.description("Only pools of stablecoins")), false),
    minTvl: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1e13), v.description("Minimum TVL in USD")),
      1_000_000,
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Pools to return, 1-50")),
      10,
    ),
  }),
  output: v.object({
    considered: v.pipe(v.number(), v.description("Pools that passed the filters")),
    pools: v.array(
      v.object({
        ...Pool.entries,
        score: v.pipe(v.number(), v.description("Risk-adjusted APY, percent")),
        adjustments: v.array(v.string()),
      }),
    ),
  }),
  example: {
    input: { chain: "ethereum", stablecoinOnly: true, minTvl: 1_000_000, limit: 1 },
    output: {
      considered: 96,
      pools: [
        {
          id: "aa70268e-4b52-42bf-a116-608b370f9501",
          project: "aave-v3",
          chain: "Ethereum",
          symbol: "USDC",
          tvlUsd: 1520000000,
          apy: 5.62,
          apyBase: 4.8,
          apyReward: 0.82,
          apyMean30d: 5.1,
          stablecoin: true,
          ilRisk: "no",
          exposure: "single",
          poolMeta: null,
          url: "https://defillama.com/yields/pool/aa70268e-4b52-42bf-a116-608b370f9501",
          score: 5.1,
          adjustments: ["reward APY counted at half", "capped at the 30-day mean"],
        },
      ],
    },
  },
  cacheTtl: 900,
  upstreams: [LLAMA_YIELDS],
  async handler({ input, upstream }) {
    const pools = eligiblePools(await yieldPools(upstream(LLAMA_YIELDS)), input.chain, input.minTvl).filter(
      (p) => (p.count ?? 0) >= 14 && (!input.stablecoinOnly || p.stablecoin),
    );
    const ranked = pools.map((p) => ({ p, s: score(p) })).sort((a, b) => b.s.comparedTo(a.s));
    return {
      considered: pools.length,
      pools: ranked
        .slice(0, input.limit)
        .map(({ p, s }) => ({ ...toPool(p), score: s.toDecimalPlaces(4).toNumber(), adjustments: adjustments(p) })),
    };
  },
});

function adjustments(p: YieldPool): string[] {
  const out: string[] = [];
  if (p.apyReward) out.push("reward APY counted at half");
  const effective = new Decimal(p.apyBase ?? 0).plus(new Decimal(p.apyReward ?? 0).times(0.5));
  if (p.apyMean30d !== null && effective.gt(p.apyMean30d)) out.push("capped at the 30-day mean");
  if (p.ilRisk === "yes") out.push("x0.75 impermanent-loss risk");
  if (p.predictions?.predictedClass === "Down") out.push("x0.9 APY predicted to fall");
  return out;
}
