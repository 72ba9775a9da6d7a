import type { Endpoint, HeldChannel, Price } from "../endpoint.ts";
import type { Call, Outcome } from "../runtime/call.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import type { Effect } from "../runtime/effects.ts";
import type { Discovery } from "./discovery.ts";

/** How the call is paid: `payAsUsed` when only what the call reports using is charged (up to the price). */
export interface PaymentTerms {
  payAsUsed: boolean;
}

/**
 * What a pay-as-used call used, in USDC atomic units (`ctx.use`): what it reported, never more than `price`
 * (the route's price in USDC atomic units); the whole price when it reported nothing.
 */
export function usedOf(outcome: Outcome, price: string): bigint {
  if (outcome.used === undefined) return BigInt(price);
  return BigInt(outcome.used) < BigInt(price) ? BigInt(outcome.used) : BigInt(price);
}

/** USDC atomic units (six decimals: prices, `ctx.use`, credits) in units of a token with `decimals`, rounded up. */
export function toTokenUnits(usdc: bigint, decimals: number): bigint {
  if (decimals >= 6) return usdc * 10n ** BigInt(decimals - 6);
  const unit = 10n ** BigInt(6 - decimals);
  return (usdc + unit - 1n) / unit;
}

/** An amount of a token with `decimals` in USDC atomic units (what a credit holds), rounded down. */
export function toUsdcUnits(amount: bigint, decimals: number): bigint {
  return decimals >= 6 ? amount / 10n ** BigInt(decimals - 6) : amount * 10n ** BigInt(6 - decimals);
}

/** A token the service is paid in on a network, whatever rail offers it (x402's options carry more, core/x402/requirements.ts). */
export interface TokenOption {
  /** CAIP-2. */
  network: string;
  asset: string;
  payTo: string;
  decimals: number;
}

/** What a rail quotes a route at: its price in USDC atomic units (what a credit is charged or given back), and the resource. */
export interface RouteQuote {
  amount: string;
  resource: { url: string; description: string; mimeType: string };
}

/**
 * A rail's offers: the options it takes, each route's quote (built once per endpoint and price), the 402 made of a
 * quote, and what the discovery documents and MCP answers say of them.
 */
export interface Offers<O extends TokenOption = TokenOption, Q extends RouteQuote = RouteQuote> {
  readonly options: O[];
  requirements(endpoint: Endpoint, price?: Price): Q;
  challenge(endpoint: Endpoint, quote: Q, message: string): Outcome;
  readonly discovery: Discovery;
}

/** The decimals of the token one of our requirements asks for: those of the option it was built from. */
export function decimalsOf(options: readonly TokenOption[], network: string, asset: string): number {
  const option = options.find((o) => o.network === network && o.asset.toLowerCase() === asset.toLowerCase());
  if (!option) throw new Error(`no payment option for ${asset} on ${network}`);
  return option.decimals;
}

/**
 * Keeps a paid call's reservations and applies its writes (`ctx.reserve`, `ctx.afterPayment`) once its payment is
 * final: the answer to send (a batch's reports the items whose writes failed, and credits them), or undefined
 * when the call's writes could not be applied (nothing of them is kept: the gate credits what was charged).
 * A call that ends without reaching it is not paid: the call path releases its reservations.
 */
export type Commit = ((outcome: Outcome) => Promise<Outcome | undefined>) & {
  /** The same effects as data, when another process could apply them (effects.ts `described`). */
  effects?: () => Effect[] | undefined;
};

export interface PaymentGate<O extends TokenOption = TokenOption, Q extends RouteQuote = RouteQuote> {
  /** How this service takes payment (network, asset, payTo), for discovery documents. */
  readonly options: O[];
  /** The route's requirements, built once per endpoint and price. */
  requirements(endpoint: Endpoint, price?: Price): Q;
  /** Its offers' discovery parts: all the runtime and MCP read of the rail. */
  readonly discovery: Discovery;
  /**
   * Runs `work` only for a payment that is valid, bound to this route and claimed; settles, then `commit`s
   * the call's effects, before answering. `work` never throws: a failure comes back as an outcome with
   * status >= 400, and nothing is charged for it. A call without any payment gets the route's challenge at
   * once, not a promise of it.
   */
  charge(
    call: Call,
    work: (payer?: string, terms?: PaymentTerms) => Promise<Outcome>,
    price?: Price,
    commit?: Commit,
  ): MaybePromise<Outcome>;
  /** The channels a way to pay keeps per payer (batch-settlement's), that `wallet` pays from. */
  channels?(wallet: string): Promise<HeldChannel[]>;
}

/**
 * What leaves a gate, as it leaves: every 402 (`challenge`, a route's unpaid one answered again and again, so it
 * may stay a value) and every paid answer (`paid`, at `price` in USDC atomic units). core/receipts signs them.
 */
export interface GateAnswers {
  challenge(call: Call, outcome: Outcome): MaybePromise<Outcome>;
  paid(call: Call, outcome: Outcome, price: string): Promise<Outcome>;
}

/** Built once per endpoint and price, then found without building a key (this is on every paid and unpaid request). */
export function perRoute<T>(build: (endpoint: Endpoint, price: Price) => T) {
  const cache = new WeakMap<Endpoint, Map<Price, T>>();
  return (endpoint: Endpoint, price: Price = endpoint.price): T => {
    let byPrice = cache.get(endpoint);
    if (!byPrice) cache.set(endpoint, (byPrice = new Map()));
    let value = byPrice.get(price);
    if (value === undefined) byPrice.set(price, (value = build(endpoint, price)));
    return value;
  };
}

/** A gate that takes no payment at all: every paid call is answered 402 (used until a facilitator is configured). */
export function createClosedGate<O extends TokenOption, Q extends RouteQuote>(offers: Offers<O, Q>): PaymentGate<O, Q> {
  return {
    options: offers.options,
    requirements: offers.requirements,
    discovery: offers.discovery,
    charge(call, _work, price) {
      return offers.challenge(call.endpoint, offers.requirements(call.endpoint, price), "Payment required");
    },
  };
}
