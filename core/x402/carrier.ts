import type { CredentialCarrier } from "../payment/carrier.ts";
import { encodeHeader } from "../shared.ts";

/** The x402 request headers: a v2 PaymentPayload, a v1 one (both base64 JSON). */
export const x402Headers = { v2: "payment-signature", v1: "x-payment" } as const;

/** The x402 MCP transport keys (x402 specs/transports-v2/mcp.md; v1 uses the same ones). */
export const paymentMetaKey = "x402/payment";
export const paymentResponseMetaKey = "x402/payment-response";

/**
 * x402 over HTTP and MCP. `_meta["x402/payment"]` carries the PaymentPayload as an object; the gate takes it exactly
 * as the HTTP header of its version would carry it (base64 JSON), so MCP payments meet the same checks, claims and replies.
 */
export const x402Carrier: CredentialCarrier = {
  requestHeaders: [x402Headers.v2, x402Headers.v1],
  responseHeaders: ["payment-required", "payment-response", "x-payment-response", "x-payment-requirements"],
  fromMeta(meta) {
    if (!(paymentMetaKey in meta)) return undefined;
    const payment = meta[paymentMetaKey];
    const encoded = encodeHeader(payment);
    const v1 = (payment as { x402Version?: unknown } | null)?.x402Version === 1;
    return { [v1 ? x402Headers.v1 : x402Headers.v2]: encoded };
  },
};
