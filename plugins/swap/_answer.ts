import { Decimal } from "decimal.js";
import { chainOf, isNative, zeroAddress } from "./_chains.ts";
import type { RaceResult } from "./_race.ts";
import type { ExtraCost, RouteQuote, RouteRequest } from "./_route.ts";

export const disclaimer =
  "Quotes come from third-party aggregators and are valid until quoteExpiresAt. The service is non-custodial: it never holds funds and never signs; " +
  "check the transaction and any approval before your own wallet signs and sends them. Network gas is paid by the sender and is not in these amounts.";

export interface Pricing {
  /** USD per native coin of the origin chain (DefiLlama), to value fees paid in native coin. */
  nativeUsd?: number;
  /** USD value of the input, when the aggregator does not give one. */
  amountInUsd?: number;
}

type AggregatorFee = { total: string; token: string; totalUsd: number };
type Fees = { integrator: ReturnType<typeof integratorFee>; breakdown: string[] } & Record<string, AggregatorFee>;

export interface Ranked {
  quote: RouteQuote;
  /** amountOut less the costs paid on top of the input, in output units; null when one of them cannot be valued. */
  netAmountOut: string | null;
  /** The costs on top that no price available could turn into output units. */
  unvalued: ExtraCost[];
}

/**
 * Best net amount out first (the faster route wins a tie); a route with a cost on top that cannot be valued ranks
 * after every route whose costs are all known, because comparing it would be a guess.
 */
export function rank(result: RaceResult, req: RouteRequest, pricing: Pricing): Ranked[] {
  const nativeUsd = pricing.nativeUsd ?? highestQuotedNativeUsd(result.answered);
  return result.answered
    .map((quote): Ranked => {
      const valued = quote.extraCosts.map((cost) => ({ cost, out: inOutputUnits(cost, quote, req, nativeUsd) }));
      const unvalued = valued.filter((v) => v.out === undefined).map((v) => v.cost);
      const extra = valued.reduce((sum, v) => sum.plus(v.out ?? 0), new Decimal(0));
      const net = Decimal.max(0, new Decimal(quote.amountOut).minus(extra.ceil())).toFixed(0);
      return { quote, unvalued, netAmountOut: unvalued.length ? null : net };
    })
    .sort((a, b) => {
      if ((a.netAmountOut === null) !== (b.netAmountOut === null)) return a.netAmountOut === null ? 1 : -1;
      const diff = BigInt(b.netAmountOut ?? b.quote.amountOut) - BigInt(a.netAmountOut ?? a.quote.amountOut);
      return diff !== 0n ? (diff > 0n ? 1 : -1) : a.quote.estimatedFillTimeSeconds - b.quote.estimatedFillTimeSeconds;
    });
}

/** The aggregators' own prices of the native coin, the highest: a fee on top is never made to look cheaper than one of them says. */
function highestQuotedNativeUsd(quotes: RouteQuote[]): number | undefined {
  const prices = quotes.flatMap((q) => (q.nativeUsd !== undefined && q.nativeUsd > 0 ? [q.nativeUsd] : []));
  return prices.length ? Math.max(...prices) : undefined;
}

/**
 * A cost on top in output units: as is when it is the output token, at the route's own rate when it is the input
 * token, else through USD (its own, or the native coin's price) at the route's own output price. Undefined: no way.
 */
function inOutputUnits(cost: ExtraCost, quote: RouteQuote, req: RouteRequest, nativeUsd?: number): Decimal | undefined {
  const amount = new Decimal(cost.amount);
  if (sameToken(cost.token, req.fromChain, req.toToken, req.toChain)) return amount;
  if (sameToken(cost.token, req.fromChain, req.fromToken, req.fromChain) && BigInt(quote.amountIn) > 0n)
    return amount.mul(quote.amountOut).div(quote.amountIn);
  const usd =
    cost.usd ?? (isNative(cost.token) && nativeUsd !== undefined ? amount.div("1e18").mul(nativeUsd) : undefined);
  if (usd === undefined || !quote.amountOutUsd) return undefined;
  return new Decimal(usd).mul(quote.amountOut).div(quote.amountOutUsd);
}

/** Two tokens are one unit: the same address on the same chain, or native coins priced as one coin (ETH on Base and Arbitrum). */
function sameToken(a: string, chainA: number, b: string, chainB: number): boolean {
  if (isNative(a) && isNative(b)) return chainOf(chainA).nativePrice === chainOf(chainB).nativePrice;
  return chainA === chainB && a.toLowerCase() === b.toLowerCase();
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
  const recipient = quote.integratorFee?.recipient ?? req.feeRecipient ?? zeroAddress;
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

function breakdown({ quote, unvalued }: Ranked, integrator: ReturnType<typeof integratorFee>): string[] {
  const lines = [
    `${quote.source} fee: ${quote.aggregatorFee.total} base units of ${quote.aggregatorFee.token} (about $${round(quote.aggregatorFee.totalUsd)}), deducted from amountOut`,
  ];
  if (integrator.included) {
    lines.push(
      `Integrator fee ${integrator.feeBps} bps: ${integrator.amount} base units of ${integrator.token} (about $${integrator.amountUsd}) to ${integrator.recipient}, deducted from amountOut`,
    );
  } else lines.push("No integrator fee");
  for (const cost of quote.extraCosts) {
    const known = !unvalued.includes(cost);
    lines.push(
      `Paid on top of the input: ${cost.label}, ${cost.amount} base units of ${cost.token}${cost.usd !== undefined ? ` (about $${round(cost.usd)})` : ""}; ` +
        (known
          ? "netAmountOut accounts for it"
          : "no price available values it, so netAmountOut is unknown and this route ranks after every fully priced one"),
    );
  }
  if (quote.approval)
    lines.push(
      `Approve ${quote.approval.amount} of ${quote.approval.token} to ${quote.approval.spender} before sending the transaction` +
        (quote.approval.resetFirst ? " (approve 0 first: this token refuses to change a non-zero allowance)" : ""),
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
    comparison: ranked.map(({ quote, netAmountOut, unvalued }, i) => ({
      rank: i + 1,
      source: quote.source,
      amountOut: quote.amountOut,
      netAmountOut,
      estimateSec: quote.estimatedFillTimeSeconds,
      ...(unvalued.length ? { unvaluedCosts: unvalued.map((c) => c.label) } : {}),
      ...(i === 0 ? { winner: true as const } : {}),
    })),
  };
}
