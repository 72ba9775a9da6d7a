import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError } from "../../core/runtime/errors.ts";

/** The chains honeypot.is simulates trades on. */
export const honeypotChains = { ethereum: 1, bsc: 56, base: 8453 } as const;
export type HoneypotChain = keyof typeof honeypotChains;
export const honeypotChainField = v.optional(
  v.pipe(
    v.picklist(Object.keys(honeypotChains) as HoneypotChain[], "must be one of: ethereum, bsc, base"),
    v.description("honeypot.is simulates on ethereum, bsc and base"),
  ),
  "ethereum",
);

const o = v.optional;
const n = v.nullish;
const stringOrNumber = o(v.union([v.string(), v.number()]));
/** What the code reads of honeypot.is's IsHoneypot answer: the token it found always comes; the parts of a simulation that did not run are null. */
const HoneypotAnswer = v.object({
  token: v.object({ name: o(v.string()), symbol: o(v.string()), totalHolders: o(v.number()) }),
  summary: v.nullish(
    v.object({
      risk: o(v.string()),
      riskLevel: o(v.number()),
      flags: o(v.array(v.object({ flag: v.string(), description: o(v.string()), severity: o(v.string()) }))),
    }),
  ),
  simulationSuccess: o(v.boolean()),
  simulationError: o(v.string()),
  honeypotResult: n(v.object({ isHoneypot: o(v.boolean()), honeypotReason: o(v.string()) })),
  simulationResult: n(
    v.object({
      buyTax: o(v.number()),
      sellTax: o(v.number()),
      transferTax: o(v.number()),
      buyGas: stringOrNumber,
      sellGas: stringOrNumber,
      maxBuy: o(v.object({ token: o(v.number()) })),
      maxSell: o(v.object({ token: o(v.number()) })),
    }),
  ),
  holderAnalysis: n(
    v.object({
      holders: stringOrNumber,
      successful: stringOrNumber,
      failed: stringOrNumber,
      siphoned: stringOrNumber,
      averageTax: o(v.number()),
      highestTax: o(v.number()),
    }),
  ),
  contractCode: n(v.object({ openSource: o(v.boolean()), isProxy: o(v.boolean()) })),
  pair: n(
    v.object({
      pair: o(v.object({ name: o(v.string()), address: o(v.string()), type: o(v.string()) })),
      liquidity: o(v.number()),
      createdAtTimestamp: o(v.pipe(v.string(), v.regex(/^\d{1,12}$/))),
    }),
  ),
});

const count = (value: string | number | undefined) =>
  value === undefined || value === "" || !Number.isFinite(Number(value)) ? null : Number(value);
const maybe = <T>(value: T | undefined) => (value === undefined ? null : value);

/** honeypot.is's trade simulation for a token, in our shape. A token it cannot find (no pair, no token) is a 404. */
export async function honeypotReport(api: Upstream, chain: HoneypotChain, address: string) {
  let answer: v.InferOutput<typeof HoneypotAnswer>;
  try {
    answer = await api.json("/v2/IsHoneypot", HoneypotAnswer, {
      query: { address, chainID: honeypotChains[chain] },
      notFoundAs404: true,
    });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404)
      throw notFound(`honeypot.is finds no token or pair at ${address} on ${chain}`);
    throw error;
  }
  const simulation: NonNullable<typeof answer.simulationResult> = answer.simulationResult ?? {};
  return {
    simulated: Boolean(answer.simulationSuccess),
    simulationError: answer.simulationError ?? null,
    isHoneypot: answer.simulationSuccess ? Boolean(answer.honeypotResult?.isHoneypot) : null,
    honeypotReason: answer.honeypotResult?.honeypotReason ?? null,
    risk: answer.summary?.risk ?? null,
    riskLevel: maybe(answer.summary?.riskLevel),
    flags: (answer.summary?.flags ?? []).map((f) => ({
      flag: f.flag,
      description: f.description ?? null,
      severity: f.severity ?? null,
    })),
    buyTaxPercent: maybe(simulation.buyTax),
    sellTaxPercent: maybe(simulation.sellTax),
    transferTaxPercent: maybe(simulation.transferTax),
    buyGas: count(simulation.buyGas),
    sellGas: count(simulation.sellGas),
    maxBuyTokens: maybe(simulation.maxBuy?.token),
    maxSellTokens: maybe(simulation.maxSell?.token),
    holders: answer.holderAnalysis
      ? {
          tested: count(answer.holderAnalysis.holders),
          canSell: count(answer.holderAnalysis.successful),
          cannotSell: count(answer.holderAnalysis.failed),
          siphoned: count(answer.holderAnalysis.siphoned),
          averageTaxPercent: maybe(answer.holderAnalysis.averageTax),
          highestTaxPercent: maybe(answer.holderAnalysis.highestTax),
        }
      : null,
    openSource: maybe(answer.contractCode?.openSource),
    isProxy: maybe(answer.contractCode?.isProxy),
    pair: answer.pair?.pair?.address
      ? {
          address: answer.pair.pair.address,
          name: answer.pair.pair.name ?? null,
          type: answer.pair.pair.type ?? null,
          liquidityUsd: maybe(answer.pair.liquidity),
          createdAt: answer.pair.createdAtTimestamp
            ? new Date(Number(answer.pair.createdAtTimestamp) * 1000).toISOString()
            : null,
        }
      : null,
    token: {
      name: answer.token?.name ?? null,
      symbol: answer.token?.symbol ?? null,
      totalHolders: maybe(answer.token?.totalHolders),
    },
    source: `https://honeypot.is/${chain}?address=${address}`,
  };
}

const Num = v.nullable(v.number());
export const HoneypotOutput = v.object({
  simulated: v.pipe(v.boolean(), v.description("honeypot.is could simulate a buy and a sell")),
  simulationError: v.nullable(v.string()),
  isHoneypot: v.pipe(v.nullable(v.boolean()), v.description("null when the simulation did not run")),
  honeypotReason: v.nullable(v.string()),
  risk: v.pipe(v.nullable(v.string()), v.description("honeypot.is summary: very_low ... very_high, or honeypot")),
  riskLevel: Num,
  flags: v.array(v.object({ flag: v.string(), description: v.nullable(v.string()), severity: v.nullable(v.string()) })),
  buyTaxPercent: v.pipe(Num, v.description("Simulated buy tax, percent (3 = 3%)")),
  sellTaxPercent: Num,
  transferTaxPercent: Num,
  buyGas: Num,
  sellGas: Num,
  maxBuyTokens: v.pipe(
    Num,
    v.description("Largest buy the contract allows, in tokens; null when unlimited or unknown"),
  ),
  maxSellTokens: Num,
  holders: v.nullable(
    v.object({
      tested: Num,
      canSell: Num,
      cannotSell: Num,
      siphoned: Num,
      averageTaxPercent: Num,
      highestTaxPercent: Num,
    }),
  ),
  openSource: v.nullable(v.boolean()),
  isProxy: v.nullable(v.boolean()),
  pair: v.nullable(
    v.object({
      address: v.string(),
      name: v.nullable(v.string()),
      type: v.nullable(v.string()),
      liquidityUsd: Num,
      createdAt: v.nullable(v.string()),
    }),
  ),
  token: v.object({ name: v.nullable(v.string()), symbol: v.nullable(v.string()), totalHolders: Num }),
  source: v.string(),
});
