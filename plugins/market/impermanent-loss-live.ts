import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { COINGECKO } from "./_coingecko.ts";
import { Decimal, fixed } from "./_decimal.ts";
import {
  canonicalChain,
  ChainSlug,
  chainSlug,
  LLAMA_YIELDS,
  poolUrl,
  yieldPools,
  type YieldPool,
} from "./_defillama.ts";
import { LLAMA_COINS } from "./_llama-coins.ts";
import { PAIR_TOKENS } from "../_shared/symbols.ts";
import { Pair, pairPriceReaders, splitPair } from "./_pair-prices.ts";
import { firstVenue, SourcesReport } from "./_venues.ts";
import { IlResult, ilReport } from "./_il.ts";

const Prices = v.object({ then: v.array(v.string()), now: v.array(v.string()) });

const FeePool = v.object({
  id: v.string(),
  project: v.string(),
  chain: v.string(),
  symbol: v.string(),
  tvlUsd: v.number(),
  apyBase: v.pipe(v.number(), v.description("Fee APR, percent (DefiLlama's base APY)")),
  url: v.string(),
});

/** The deepest pool of the pair on the chain that reports a fee (base) APY; wrapped forms count as the native token. */
function feePool(pools: YieldPool[], chain: string, tokens: [string, string]): YieldPool | undefined {
  const want = tokens
    .map((t) => PAIR_TOKENS[t])
    .sort()
    .join("|");
  return pools
    .filter((p) => chainSlug(p.chain) === chain && typeof p.apyBase === "number" && !p.outlier)
    .filter(
      (p) =>
        p.symbol
          .toUpperCase()
          .split("-")
          .map((s) => PAIR_TOKENS[s] ?? s)
          .sort()
          .join("|") === want,
    )
    .sort((a, b) => b.tvlUsd - a.tvlUsd)[0];
}

export default defineEndpoint({
  name: "impermanent-loss-live",
  method: "GET",
  price: "$0.01",
  summary:
    "Impermanent loss of a 50/50 pool over the last N days from live prices, with the pair's fee APR and net result versus holding",
  description:
    "The price ratio comes from USD prices now and `days` ago (DefiLlama coins, else CoinGecko); the fee APR is the base APY of the pair's deepest pool on the chain in DefiLlama Yields. " +
    "priceChangePercent and feeApr override the live figures (and skip those reads). Same model as il-calc: 50/50 constant product, decimal arithmetic.",
  input: v.object({
    pair: v.optional(
      v.pipe(Pair, v.description("Two tokens, e.g. ETH/USDC (WETH, WBTC count as ETH, BTC)")),
      "ETH/USDC",
    ),
    chain: v.optional(v.pipe(ChainSlug, v.description("Chain of the pool whose fee APR is used")), "ethereum"),
    days: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365), v.description("Look-back period in days")),
      30,
    ),
    lpAmount: v.optional(
      v.pipe(v.number(), v.gtValue(0), v.maxValue(1e12), v.description("Value deposited, USD")),
      1000,
    ),
    priceChangePercent: v.optional(
      v.pipe(
        v.number(),
        v.minValue(-99.999999),
        v.maxValue(1_000_000),
        v.description("Use this move of the first token against the second instead of live prices"),
      ),
    ),
    feeApr: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0),
        v.maxValue(100_000),
        v.description("Use this fee APR (percent) instead of the pool's"),
      ),
    ),
  }),
  output: v.object({
    pair: v.string(),
    chain: v.string(),
    days: v.number(),
    pricesUsd: v.nullable(
      v.pipe(
        Prices,
        v.description("USD prices of the two tokens then and now; null when priceChangePercent was given"),
      ),
    ),
    feePool: v.nullable(
      v.pipe(FeePool, v.description("The pool whose fee APR is used; null when feeApr was given or no pool matched")),
    ),
    result: IlResult,
    sources: SourcesReport,
  }),
  example: {
    input: { pair: "ETH/USDC", chain: "ethereum", days: 30, lpAmount: 1000, feeApr: 18.4 },
    output: {
      pair: "ETH/USDC",
      chain: "ethereum",
      days: 30,
      pricesUsd: { then: ["3950.12", "1"], now: ["3301.1", "0.9999"] },
      feePool: null,
      result: {
        model: "50/50 constant product (Uniswap v2 style), fees simple over the period",
        priceRatio: "0.83577971",
        impermanentLossPercent: "-0.400917",
        amount: "1000",
        holdValue: "917.88985436",
        lpValue: "914.20988221",
        feeIncome: "15.12328767",
        netVsHoldPercent: "1.246698",
        breakEvenFeeAprPercent: "4.477299",
      },
      sources: { answered: ["defillama-coins"], missing: [] },
    },
  },
  cacheTtl: 300,
  upstreams: [LLAMA_COINS, COINGECKO, LLAMA_YIELDS],
  async handler({ input, upstream, signal, now }) {
    const tokens = splitPair(input.pair);
    const chain = canonicalChain(input.chain);
    const answered: string[] = [];
    const missing: SourcesReport["missing"] = [];
    const pricesRead =
      input.priceChangePercent === undefined
        ? firstVenue(pairPriceReaders(upstream, tokens, input.days, now().getTime()), signal)
        : undefined;
    const poolRead =
      input.feeApr === undefined
        ? yieldPools(upstream(LLAMA_YIELDS)).then((pools) => feePool(pools, chain, tokens))
        : undefined;
    const [prices, pool] = await Promise.all([pricesRead, poolRead]);
    if (prices) {
      answered.push(...prices.sources.answered);
      missing.push(...prices.sources.missing);
    }
    if (poolRead) answered.push(LLAMA_YIELDS);
    const ratio = prices
      ? prices.value.now[0]
          .dividedBy(prices.value.now[1])
          .dividedBy(prices.value.then[0].dividedBy(prices.value.then[1]))
      : new Decimal(input.priceChangePercent!).dividedBy(100).plus(1);
    const feeApr = input.feeApr ?? pool?.apyBase ?? 0;
    return {
      pair: tokens.join("/"),
      chain,
      days: input.days,
      pricesUsd: prices
        ? { then: prices.value.then.map((x) => fixed(x, 10)), now: prices.value.now.map((x) => fixed(x, 10)) }
        : null,
      feePool: pool
        ? {
            id: pool.pool,
            project: pool.project,
            chain: pool.chain,
            symbol: pool.symbol,
            tvlUsd: pool.tvlUsd,
            apyBase: pool.apyBase!,
            url: poolUrl(pool.pool),
          }
        : null,
      result: ilReport(ratio, new Decimal(input.lpAmount), new Decimal(feeApr), input.days),
      sources: { answered, missing },
    };
  },
});
