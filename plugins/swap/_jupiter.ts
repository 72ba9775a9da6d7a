import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { assembleTransaction, JupiterInstruction } from "./_jupiter-tx.ts";

export const solMint = "So11111111111111111111111111111111111111112";
export const SolanaKey = v.pipe(
  v.string(),
  v.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be a base58 Solana public key"),
);

const Units = v.pipe(v.string(), v.regex(/^\d+$/, "not base units"));
/** What the code reads of Jupiter's `/swap/v2/build` answer: the quote, its route and the instructions to assemble. */
const JupiterBuild = v.object({
  inputMint: v.string(),
  inAmount: Units,
  outputMint: v.string(),
  outAmount: Units,
  otherAmountThreshold: Units,
  slippageBps: v.number(),
  priceImpactPct: v.nullish(v.union([v.string(), v.number()])),
  platformFee: v.nullish(v.object({ amount: Units })),
  routePlan: v.array(
    v.object({
      swapInfo: v.object({
        label: v.string(),
        inputMint: v.string(),
        outputMint: v.string(),
        inAmount: Units,
        outAmount: Units,
      }),
      bps: v.optional(v.number()),
      percent: v.optional(v.number()),
    }),
  ),
  computeBudgetInstructions: v.array(JupiterInstruction),
  setupInstructions: v.array(JupiterInstruction),
  swapInstruction: JupiterInstruction,
  cleanupInstruction: v.nullish(JupiterInstruction),
  otherInstructions: v.optional(v.array(JupiterInstruction)),
  tipInstruction: v.nullish(JupiterInstruction),
  addressesByLookupTableAddress: v.nullish(v.record(v.string(), v.array(v.string()))),
  blockhashWithMetadata: v.object({
    blockhash: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))), v.length(32)),
    lastValidBlockHeight: v.number(),
  }),
});

export interface SolanaTrade {
  inputMint: string;
  outputMint: string;
  amount: string;
  user: string;
  feeBps: number;
  slippageBps: number;
}

/**
 * Jupiter Swap API v2 `/build`: the quote and the instructions in one call, assembled here into the unsigned
 * versioned transaction the user signs. The platform fee needs a token account of the service's for the input or
 * output mint (SWAP_SOLANA_FEE_ACCOUNTS); without one the fee is 0 and the answer says so.
 */
export async function jupiterTrade(api: Upstream, trade: SolanaTrade, accounts: ReadonlyMap<string, string>) {
  const feeMint = [trade.outputMint, trade.inputMint].find((mint) => accounts.has(mint));
  const feeBps = feeMint && trade.feeBps > 0 ? trade.feeBps : 0;
  const built = await api.json("/swap/v2/build", JupiterBuild, {
    query: {
      inputMint: trade.inputMint,
      outputMint: trade.outputMint,
      amount: trade.amount,
      taker: trade.user,
      slippageBps: trade.slippageBps,
      ...(feeBps > 0 ? { platformFeeBps: feeBps, feeAccount: accounts.get(feeMint!) } : {}),
    },
  });
  return {
    inputMint: built.inputMint,
    outputMint: built.outputMint,
    inAmount: built.inAmount,
    outAmount: built.outAmount,
    minOutAmount: built.otherAmountThreshold,
    slippageBps: built.slippageBps,
    priceImpactPct: built.priceImpactPct == null ? null : String(built.priceImpactPct),
    route: built.routePlan.map(({ swapInfo, bps, percent }) => ({
      label: swapInfo.label,
      inputMint: swapInfo.inputMint,
      outputMint: swapInfo.outputMint,
      inAmount: swapInfo.inAmount,
      outAmount: swapInfo.outAmount,
      percent: bps !== undefined ? bps / 100 : (percent ?? 0),
    })),
    platformFee: {
      feeBps,
      amount: feeBps > 0 ? (built.platformFee?.amount ?? null) : "0",
      mint: feeBps > 0 ? feeMint! : null,
      account: feeBps > 0 ? accounts.get(feeMint!)! : null,
    },
    transaction: {
      encoding: "base64" as const,
      swapTransaction: await assembleTransaction(built, trade.user),
      lastValidBlockHeight: built.blockhashWithMetadata.lastValidBlockHeight,
    },
  };
}

export const SolanaTradeOutput = {
  inputMint: v.string(),
  outputMint: v.string(),
  inAmount: v.pipe(v.string(), v.description("Base units of inputMint")),
  outAmount: v.pipe(v.string(), v.description("Base units of outputMint, after the platform fee")),
  minOutAmount: v.pipe(v.string(), v.description("Least the user gets at the slippage tolerance")),
  slippageBps: v.number(),
  priceImpactPct: v.pipe(v.nullable(v.string()), v.description("Price impact when Jupiter reports it")),
  route: v.array(
    v.object({
      label: v.string(),
      inputMint: v.string(),
      outputMint: v.string(),
      inAmount: v.string(),
      outAmount: v.string(),
      percent: v.number(),
    }),
  ),
  platformFee: v.object({
    feeBps: v.pipe(v.number(), v.description("Applied fee; 0 when the service has no fee account for either mint")),
    amount: v.pipe(v.nullable(v.string()), v.description("Base units of the fee when Jupiter reports it")),
    mint: v.nullable(v.string()),
    account: v.nullable(v.string()),
  }),
  transaction: v.object({
    encoding: v.literal("base64"),
    swapTransaction: v.pipe(
      v.string(),
      v.description("Unsigned versioned transaction, base64: sign it with the user's key and send it"),
    ),
    lastValidBlockHeight: v.number(),
  }),
};

/** What the code reads of a token in Jupiter's Tokens API v2 search. */
const JupiterToken = v.object({
  id: v.string(),
  name: v.string(),
  symbol: v.string(),
  icon: v.nullish(v.string()),
  decimals: v.number(),
  usdPrice: v.nullish(v.number()),
  liquidity: v.nullish(v.number()),
  mcap: v.nullish(v.number()),
  holderCount: v.nullish(v.number()),
  isVerified: v.nullish(v.boolean()),
  organicScore: v.nullish(v.number()),
  audit: v.nullish(
    v.object({
      mintAuthorityDisabled: v.nullish(v.boolean()),
      freezeAuthorityDisabled: v.nullish(v.boolean()),
      topHoldersPercentage: v.nullish(v.number()),
    }),
  ),
});

/** Token cards from Jupiter's Tokens API v2 (`/tokens/v2/search?query=<mints>`). */
export async function tokenCards(api: Upstream, mints: string[]) {
  const found = await api.json("/tokens/v2/search", v.array(JupiterToken), { query: { query: mints.join(",") } });
  return mints.flatMap((mint) => {
    const t = found.find((x) => x.id === mint);
    if (!t) return [];
    return [
      {
        mint: t.id,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        icon: t.icon ?? null,
        usdPrice: t.usdPrice ?? null,
        liquidityUsd: t.liquidity ?? null,
        marketCapUsd: t.mcap ?? null,
        holders: t.holderCount ?? null,
        verified: t.isVerified ?? false,
        organicScore: t.organicScore ?? null,
        mintAuthorityDisabled: t.audit?.mintAuthorityDisabled ?? null,
        freezeAuthorityDisabled: t.audit?.freezeAuthorityDisabled ?? null,
        topHoldersPercent: t.audit?.topHoldersPercentage ?? null,
      },
    ];
  });
}

const num = v.nullable(v.number());
export const TokenCard = v.object({
  mint: v.string(),
  symbol: v.string(),
  name: v.string(),
  decimals: v.number(),
  icon: v.nullable(v.string()),
  usdPrice: num,
  liquidityUsd: num,
  marketCapUsd: num,
  holders: num,
  verified: v.boolean(),
  organicScore: num,
  mintAuthorityDisabled: v.nullable(v.boolean()),
  freezeAuthorityDisabled: v.nullable(v.boolean()),
  topHoldersPercent: num,
});
