import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { canonicalChain, ChainSlug, chainSlug } from "./_defillama.ts";
import { Decimal, fixed } from "./_decimal.ts";

const LLAMA = "defillama";

/** What the code reads of DefiLlama's chains and a chain's TVL history (oldest first). */
const Chains = v.array(v.object({ name: v.string(), tvl: v.number(), tokenSymbol: v.nullable(v.string()) }));
const History = v.array(v.object({ date: v.number(), tvl: v.number() }));

const pct = (now: number, before: number | undefined) =>
  before ? fixed(new Decimal(now).dividedBy(before).minus(1).times(100), 4) : null;

export default defineEndpoint({
  name: "tvl",
  method: "GET",
  price: "$0.005",
  summary: "DeFi total value locked: one chain's TVL with its 1 d and 7 d change, or the ranking of all chains",
  description:
    "From DefiLlama (api.llama.fi/v2/chains, and /v2/historicalChainTvl/{chain} for the changes). An unknown chain is a 404.",
  input: v.object({
    chain: v.optional(
      v.pipe(ChainSlug, v.description("Chain slug: ethereum, solana, base...; the ranking when unset")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("Chains in the ranking, 1-200")),
      20,
    ),
  }),
  output: v.object({
    totalTvlUsd: v.number(),
    chain: v.nullable(
      v.object({
        name: v.string(),
        tvlUsd: v.number(),
        change1dPercent: v.nullable(v.string()),
        change7dPercent: v.nullable(v.string()),
        tokenSymbol: v.nullable(v.string()),
        url: v.string(),
      }),
    ),
    ranking: v.array(v.object({ rank: v.number(), name: v.string(), tvlUsd: v.number(), sharePercent: v.string() })),
  }),
  example: {
    input: { chain: "ethereum", limit: 1 },
    output: {
      totalTvlUsd: 128123456789.1,
      chain: {
        name: "Ethereum",
        tvlUsd: 72123456789.2,
        change1dPercent: "1.2345",
        change7dPercent: "-2.1",
        tokenSymbol: "ETH",
        url: "https://defillama.com/chain/Ethereum",
      },
      ranking: [{ rank: 1, name: "Ethereum", tvlUsd: 72123456789.2, sharePercent: "56.2921" }],
    },
  },
  cacheTtl: 600,
  upstreams: [LLAMA],
  async handler({ input, upstream }) {
    const api = upstream(LLAMA);
    const chains = await api.json("/v2/chains", Chains);
    const sorted = [...chains].sort((a, b) => b.tvl - a.tvl);
    const total = sorted.reduce((s, c) => s.plus(c.tvl), new Decimal(0));
    const ranking = sorted.slice(0, input.limit).map((c, i) => ({
      rank: i + 1,
      name: c.name,
      tvlUsd: c.tvl,
      sharePercent: fixed(new Decimal(c.tvl).dividedBy(total).times(100), 4),
    }));
    if (!input.chain) return { totalTvlUsd: total.toNumber(), chain: null, ranking };
    const found = chains.find((c) => chainSlug(c.name) === canonicalChain(input.chain!));
    if (!found) throw notFound(`DefiLlama tracks no chain ${input.chain}`);
    const series = await api.json(`/v2/historicalChainTvl/${encodeURIComponent(found.name)}`, History);
    const back = (days: number) => series[series.length - 1 - days]?.tvl;
    return {
      totalTvlUsd: total.toNumber(),
      chain: {
        name: found.name,
        tvlUsd: found.tvl,
        change1dPercent: pct(found.tvl, back(1)),
        change7dPercent: pct(found.tvl, back(7)),
        tokenSymbol: found.tokenSymbol,
        url: `https://defillama.com/chain/${encodeURIComponent(found.name)}`,
      },
      ranking,
    };
  },
});
