import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export const solMint = "So11111111111111111111111111111111111111112";
export const SolanaKey = v.pipe(
  v.string(),
  v.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be a base58 Solana public key"),
);

const o = v.optional;
const Units = v.pipe(v.string(), v.regex(/^\d+$/, "not base units"));
/** What the code reads of Jupiter's quote; it is sent back to /swap verbatim, so every field of it is kept. */
const JupiterQuote = v.looseObject({
  inputMint: v.string(),
  inAmount: Units,
  outputMint: v.string(),
  outAmount: Units,
  otherAmountThreshold: Units,
  slippageBps: v.number(),
  platformFee: v.nullish(v.looseObject({ amount: Units })),
  priceImpactPct: v.string(),
  routePlan: v.array(
    v.looseObject({
      swapInfo: v.looseObject({
        label: v.string(),
        inputMint: v.string(),
        outputMint: v.string(),
        inAmount: Units,
        outAmount: Units,
      }),
      percent: v.number(),
    }),
  ),
});
const JupiterSwap = v.object({
  swapTransaction: v.pipe(v.string(), v.base64()),
  lastValidBlockHeight: v.number(),
  prioritizationFeeLamports: o(v.number()),
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
 * Jupiter Swap API v1: a quote, then the unsigned versioned transaction for the user to sign. The platform fee
 * needs a token account of the service's for the input or output mint (SWAP_SOLANA_FEE_ACCOUNTS); without
 * one the fee is 0 and the answer says so.
 */
export async function jupiterTrade(api: Upstream, trade: SolanaTrade, accounts: ReadonlyMap<string, string>) {
  const feeMint = [trade.outputMint, trade.inputMint].find((mint) => accounts.has(mint));
  const feeBps = feeMint && trade.feeBps > 0 ? trade.feeBps : 0;
  const quote = await api.json("/swap/v1/quote", JupiterQuote, {
    query: {
      inputMint: trade.inputMint,
      outputMint: trade.outputMint,
      amount: trade.amount,
      slippageBps: trade.slippageBps,
      platformFeeBps: feeBps,
      restrictIntermediateTokens: true,
    },
  });
  const swap = await api.json("/swap/v1/swap", JupiterSwap, {
    method: "POST",
    body: {
      quoteResponse: quote,
      userPublicKey: trade.user,
      ...(feeBps > 0 ? { feeAccount: accounts.get(feeMint!) } : {}),
      wrapAndUnwrapSol: true,
      dynamicComputeUnitLimit: true,
      prioritizationFeeLamports: "auto",
    },
  });
  return {
    inputMint: quote.inputMint,
    outputMint: quote.outputMint,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    minOutAmount: quote.otherAmountThreshold,
    slippageBps: quote.slippageBps,
    priceImpactPct: quote.priceImpactPct,
    route: quote.routePlan.map(({ swapInfo, percent }) => ({
      label: swapInfo.label,
      inputMint: swapInfo.inputMint,
      outputMint: swapInfo.outputMint,
      inAmount: swapInfo.inAmount,
      outAmount: swapInfo.outAmount,
      percent,
    })),
    platformFee: {
      feeBps,
      amount: quote.platformFee?.amount ?? "0",
      mint: feeBps > 0 ? feeMint! : null,
      account: feeBps > 0 ? accounts.get(feeMint!)! : null,
    },
    transaction: {
      encoding: "base64" as const,
      swapTransaction: swap.swapTransaction,
      lastValidBlockHeight: swap.lastValidBlockHeight,
      prioritizationFeeLamports: swap.prioritizationFeeLamports ?? 0,
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
  priceImpactPct: v.string(),
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
    amount: v.string(),
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
    prioritizationFeeLamports: v.number(),
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
