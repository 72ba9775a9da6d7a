import type { CredentialCarrier } from "../payment/carrier.ts";
import { decodeHeader, encodeHeader } from "../shared.ts";

/** The x402 request headers: a v2 PaymentPayload, a v1 one (both base64 JSON). */
export const x402Headers = { v2: "payment-signature", v1: "x-payment" } as const;

/** The x402 MCP transport keys (x402 specs/transports-v2/mcp.md; v1 uses the same ones). */
const paymentKey = "x402/payment";
const receiptKey = "x402/payment-response";

/**
 * x402 over HTTP and MCP. `_meta["x402/payment"]` carries the PaymentPayload as an object; the gate takes it exactly
 * as the HTTP header of its version would carry it (base64 JSON), so MCP payments meet the same checks, claims and replies.
 */
export const x402Carrier: CredentialCarrier = {
  requestHeaders: [x402Headers.v2, x402Headers.v1],
  responseHeaders: ["payment-required", "payment-response", "x-payment-response", "x-payment-requirements"],
  fromMeta(meta) {
    if (!(paymentKey in meta)) return undefined;
    const payment = meta[paymentKey];
    const encoded = encodeHeader(payment);
    const v1 = (payment as { x402Version?: unknown } | null)?.x402Version === 1;
    return { [v1 ? x402Headers.v1 : x402Headers.v2]: encoded };
  },
  mcp: {
    paymentKey,
    receiptKey,
    receiptOf(headers) {
      const receipt = headers["payment-response"] ?? headers["x-payment-response"];
      return receipt ? decodeHeader(receipt) : undefined;
    },
    // The v2 PaymentRequired, plus what the v1 body adds to a refusal (`reason`, `creditCode`).
    challengeOf(outcome) {
      const header = outcome.headers["payment-required"];
      if (!header) return undefined;
      const { x402Version, error, accepts, ...details } = outcome.body as Record<string, unknown>;
      return { ...(decodeHeader(header) as Record<string, unknown>), ...details };
    },
  },
};
