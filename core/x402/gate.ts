import type { Endpoint, Price } from "../endpoint.ts";
import type { Call, Outcome } from "../runtime/invoke.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import { challenge } from "./challenge.ts";
import { buildRequirements, type PaymentOption, type RouteRequirements } from "./requirements.ts";

/** How the call is paid: `payAsUsed` when only what the call reports using is charged (up to the price). */
export interface PaymentTerms {
  payAsUsed: boolean;
}

/** What a pay-as-used call reported using, capped at what was authorized; the whole amount when it reported nothing. */
export function usedOf(outcome: Outcome, authorized: string): string {
  if (outcome.used === undefined) return authorized;
  return BigInt(outcome.used) < BigInt(authorized) ? outcome.used : authorized;
}

/** Applies a paid call's effects (`ctx.afterPayment`) once its payment is final; false when one could not be applied. */
export type Commit = () => Promise<boolean>;

export interface PaymentGate {
  /** How this service takes payment (network, asset, payTo), for discovery documents. */
  readonly options: PaymentOption[];
  /** The route's requirements, built once per endpoint and price. */
  requirements(endpoint: Endpoint, price?: Price): RouteRequirements;
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

/** Requirements are the same for every request to a route, so they are built once and reused. */
export const requirementsCache = (options: PaymentOption[], baseUrl: string) =>
  perRoute((endpoint, price) => buildRequirements(endpoint, options, baseUrl, price));

/** A gate that takes no payment at all: every paid call is answered 402 (used until a facilitator is configured). */
export function createClosedGate(options: PaymentOption[], baseUrl: string): PaymentGate {
  const requirements = requirementsCache(options, baseUrl);
  return {
    options,
    requirements,
    charge(call, _work, price) {
      return challenge(call.endpoint, requirements(call.endpoint, price), "Payment required");
    },
  };
}
