import { PAYMENT_IDENTIFIER, declarePaymentIdentifierExtension } from "@x402/extensions/payment-identifier";
import type { Endpoint } from "../endpoint.ts";
import type { Outcome } from "../runtime/invoke.ts";
import type { RouteRequirements } from "./requirements.ts";

export const encodeHeader = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

/**
 * The 402 in all three forms at once: the v2 `PAYMENT-REQUIRED` header (base64 JSON), the spec's
 * `X-PAYMENT-Requirements` header (plain JSON), and the v1 body that x402-fetch 1.x reads.
 */
export function challenge(endpoint: Endpoint, requirements: RouteRequirements, error: string, extraHeaders: Record<string, string> = {}): Outcome {
  const paymentRequired = {
    x402Version: 2,
    error,
    resource: requirements.resource,
    accepts: requirements.v2,
    // A retry that repeats the payer's payment identifier gets its stored answer; without one it gets a 409.
    extensions: { bazaar: bazaarOf(endpoint), [PAYMENT_IDENTIFIER]: paymentIdentifier },
  };
  return {
    status: 402,
    body: { x402Version: 1, error, accepts: requirements.v1 },
    headers: {
      "payment-required": encodeHeader(paymentRequired),
      "x-payment-requirements": JSON.stringify({ x402Version: 1, accepts: requirements.v1 }),
      "cache-control": "no-store",
      ...extraHeaders,
    },
  };
}

const paymentIdentifier = declarePaymentIdentifierExtension(false);

/** A compact Bazaar discovery entry: the client echoes it in its payment header, so it stays small. */
function bazaarOf(endpoint: Endpoint) {
  const input =
    endpoint.method === "GET"
      ? { type: "http", method: "GET", queryParams: endpoint.example.input }
      : { type: "http", method: "POST", bodyType: "json", body: endpoint.example.input };
  return { info: { input, output: { type: "json" } } };
}
