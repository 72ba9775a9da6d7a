import type { Offers, PaymentGate } from "../payment/gate.ts";
import { perRoute } from "../payment/gate.ts";
import { createPaidGate, type PaidGate, type PaidGateParts } from "../payment/paid-gate.ts";
import { challenge } from "./challenge.ts";
import { x402Discovery } from "./discovery.ts";
import { buildRequirements, type PaymentOption, type RouteRequirements } from "./requirements.ts";
import { x402Way } from "./way.ts";

/** A gate that offers x402's requirements: what the discovery documents read of the payment options. */
export type X402Gate = PaymentGate<PaymentOption, RouteRequirements>;

export type X402PaidGate = PaidGate<PaymentOption, RouteRequirements>;

/** The paid gate with x402's offers, taking x402's payments (vouchers register into it when they are on). */
export function createX402Gate({
  options,
  baseUrl,
  ...parts
}: Omit<PaidGateParts<PaymentOption, RouteRequirements>, "offers"> & {
  options: PaymentOption[];
  baseUrl: string;
}): X402PaidGate {
  const gate = createPaidGate({ ...parts, offers: x402Offers(options, baseUrl) });
  gate.register(x402Way(gate));
  return gate;
}

/**
 * x402's offers: requirements built once per route and price (the same for every request), the 402 made of them,
 * and what the discovery documents and MCP answers say of them.
 */
export function x402Offers(options: PaymentOption[], baseUrl: string): Offers<PaymentOption, RouteRequirements> {
  const requirements = perRoute((endpoint, price) => buildRequirements(endpoint, options, baseUrl, price));
  return {
    options,
    requirements,
    challenge: (endpoint, quote, message) => challenge(endpoint, quote, message),
    discovery: x402Discovery(options, baseUrl, requirements),
  };
}
