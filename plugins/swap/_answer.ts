import { Decimal } from "decimal.js";
import { zeroAddress } from "./_chains.ts";
import type { RaceResult } from "./_race.ts";
import type { RouteQuote, RouteRequest } from "./_route.ts";

export const disclaimer =
  "Quotes come from third-party aggregators and are valid until quoteExpiresAt. The service is non-custodial: it never holds funds and never signs; " +
  "check the transaction and any approval before your own wallet signs and sends them. Network gas is paid by the sender and is not in these amounts.";

export interface Pricing {
  /** USD per native coin of the origin chain, to price fixed fees paid in native coin. */
  nativeUsd?: number;
  /** USD value of the input, when the aggregator does not give one. */
  amountInUsd?: number;
}

type AggregatorFee = { total: string; token: string; totalUsd: number };
type Fees = { integrator: ReturnType<typeof integratorFee>; breakdown: string[] } & Record<string, AggregatorFee>;

export interface Ranked {
  quote: RouteQuote;
  /** amountOut minus fees paid outside it (converted to output units at the route's own output price). */
  netAmountOut: string;
  extraCostUsd: number;
}

/** Best net amount out first; the faster route wins a tie. */
export function rank(result: RaceResult, pricing: Pricing): Ranked[] {
  return result.answered
    .map((quote) => {
      const extraCostUsd = (quote.extraCostUsd ?? 0) + nativeUsd(quote.extraNativeWei, pricing.nativeUsd);
      return { quote, extraCostUsd, netAmountOut: netOut(quote, extraCostUsd) };
    })
    .sort((a, b) => {
      const diff = BigInt(b.netAmountOut) - BigInt(a.netAmountOut);
      return diff !== 0n ? (diff > 0n ? 1 : -1) : a.quote.estimatedFillTimeSeconds - b.quote.estimatedFillTimeSeconds;
    });
}

function nativeUsd(wei: string | undefined, price: number | undefined): number {
  if (!wei || price === undefined) return 0;
  return new Decimal(wei).div("1e18").mul(price).toNumber();
}

function netOut(quote: RouteQuote, extraCostUsd: number): string {
  if (extraCostUsd <= 0 || !quote.amountOutUsd) return quote.amountOut;
  const cost = new Decimal(quote.amountOut).mul(extraCostUsd).div(quote.amountOutUsd).floor();
  return Decimal.max(0, new Decimal(quote.amountOut).minus(cost)).toFixed(0);
}

/** Everything about one route, in the spec's Swap quote shape (less alternatives and comparison). */
export function routeAnswer(ranked: Ranked, req: RouteRequest, pricing: Pricing, expiresAt: Date) {
  const { quote } = ranked;
  const integrator = integratorFee(quote, req, pricing);
  return {
    source: quote.source,
    quote: {
      amountIn: quote.amountIn,
      amountOut: quote.amountOut,
      minAmountOut: quote.minAmountOut,
      netAmountOut: ranked.netAmountOut,
      estimatedFillTimeSeconds: quote.estimatedFillTimeSeconds,
      quoteExpiresAt: expiresAt.toISOString(),
    },
    // Keyed by the aggregator's id beside the fixed keys, as the spec's table says; TypeScript cannot type that mix.
    fees: {
      [quote.source]: {
        total: quote.aggregatorFee.total,
        token: quote.aggregatorFee.token,
        totalUsd: round(quote.aggregatorFee.totalUsd),
      },
      integrator,
      breakdown: breakdown(ranked, integrator),
    } as unknown as Fees,
    transaction: quote.transaction,
    approval: quote.approval ?? null,
  };
}

function integratorFee(quote: RouteQuote, req: RouteRequest, pricing: Pricing) {
  const fee = quote.integratorFee;
  const recipient = req.feeRecipient ?? zeroAddress;
  if (!fee || req.feeBps === 0)
    return { included: false, feeBps: 0, amount: "0", amountUsd: 0, token: req.fromToken, recipient };
  const inputUsd = quote.amountInUsd ?? pricing.amountInUsd;
  const computedUsd =
    fee.token.toLowerCase() === req.fromToken.toLowerCase() && inputUsd !== undefined
      ? (inputUsd * req.feeBps) / 10_000
      : 0;
  return {
    included: true,
    feeBps: req.feeBps,
    amount: fee.amount,
    amountUsd: round(fee.amountUsd ?? computedUsd),
    token: fee.token,
    recipient,
  };
}

function breakdown({ quote, extraCostUsd }: Ranked, integrator: ReturnType<typeof integratorFee>): string[] {
  const lines = [
    `${quote.source} fee: ${quote.aggregatorFee.total} base units of ${quote.aggregatorFee.token} (about $${round(quote.aggregatorFee.totalUsd)}), deducted from amountOut`,
  ];
  if (integrator.included) {
    lines.push(
      `Integrator fee ${integrator.feeBps} bps: ${integrator.amount} base units of ${integrator.token} (about $${integrator.amountUsd}) to ${integrator.recipient}, deducted from amountOut`,
    );
  } else lines.push("No integrator fee");
  if (extraCostUsd > 0)
    lines.push(
      `Paid on top of the input (in the transaction value or separately): about $${round(extraCostUsd)}; netAmountOut accounts for it`,
    );
  if (quote.approval)
    lines.push(
      `Approve ${quote.approval.amount} of ${quote.approval.token} to ${quote.approval.spender} before sending the transaction`,
    );
  lines.push("Network gas is paid by the sender and not included", ...quote.notes);
  return lines;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** The spec's `alternatives` and `comparison` over a ranked race. */
export function rankingOf(ranked: Ranked[]) {
  return {
    alternatives: ranked.slice(1).map(({ quote }) => ({
      source: quote.source,
      quote: { amountOut: quote.amountOut, estimatedFillTimeSeconds: quote.estimatedFillTimeSeconds },
    })),
    comparison: ranked.map(({ quote, netAmountOut }, i) => ({
      rank: i + 1,
      source: quote.source,
      amountOut: quote.amountOut,
      netAmountOut,
      estimateSec: quote.estimatedFillTimeSeconds,
      ...(i === 0 ? { winner: true as const } : {}),
    })),
  };
}
