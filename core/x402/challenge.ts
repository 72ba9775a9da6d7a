import { PAYMENT_IDENTIFIER, declarePaymentIdentifierExtension } from "@x402/extensions/payment-identifier";
import type { Endpoint } from "../endpoint.ts";
import type { Outcome } from "../runtime/call.ts";
import type { RouteRequirements } from "./requirements.ts";
import { bazaarOf } from "./bazaar.ts";
import { eip2612GasSponsoring, sponsorsPermits } from "./permit2-sponsoring.ts";

import { encodeHeader } from "../shared.ts";

export { encodeHeader };

/**
 * The 402 in all three forms at once: the v2 `PAYMENT-REQUIRED` header (base64 JSON), the spec's
 * `X-PAYMENT-Requirements` header (plain JSON), and the v1 body that x402-fetch 1.x reads.
 */
export function challenge(
  endpoint: Endpoint,
  requirements: RouteRequirements,
  error: string,
  extraHeaders: Record<string, string> = {},
): Outcome {
  const paymentRequired = {
    x402Version: 2,
    error,
    resource: requirements.resource,
    accepts: [...requirements.v2, ...requirements.batch, ...requirements.upto],
    // A retry that repeats the payer's payment identifier gets its stored answer; without one it gets a 409.
    extensions: {
      bazaar: bazaarOf(endpoint),
      [PAYMENT_IDENTIFIER]: paymentIdentifier,
      // A Permit2 payer without an allowance signs an EIP-2612 permit for it; the settlement submits it.
      ...(sponsorsPermits(requirements) ? { eip2612GasSponsoring } : {}),
    },
  };
  return {
    status: 402,
    body: { x402Version: 1, error, accepts: requirements.v1 },
    headers: {
      "payment-required": encodeHeader(paymentRequired),
      "x-payment-requirements": asciiJson({ x402Version: 1, accepts: requirements.v1 }),
      "cache-control": "no-store",
      ...extraHeaders,
    },
  };
}

const paymentIdentifier = declarePaymentIdentifierExtension(false);

/** JSON with every non-ASCII character escaped: a header value is read as Latin-1 by fetch clients. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
