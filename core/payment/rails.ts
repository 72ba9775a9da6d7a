import type { PaymentCredentials } from "../runtime/call.ts";
import { x402Carrier } from "../x402/carrier.ts";
import type { CredentialCarrier } from "./carrier.ts";
import { creditCarrier } from "./credits.ts";

/** The ways to pay this service registers: a second protocol is one more entry. */
const carriers: readonly CredentialCarrier[] = [x402Carrier, creditCarrier];

export const paymentRequestHeaders = carriers.flatMap((c) => c.requestHeaders);
export const paymentResponseHeaders = carriers.flatMap((c) => c.responseHeaders);

/** The payment credentials among a request's headers, named by their header. */
export function credentialsIn(headers: Headers): PaymentCredentials {
  const found: Record<string, string> = {};
  for (const name of paymentRequestHeaders) {
    const value = headers.get(name);
    if (value !== null) found[name] = value;
  }
  return found;
}

/** The payment credentials in an MCP request's `_meta`, read by the first way to pay that finds its own there. */
export function credentialsInMeta(meta: Record<string, unknown> | undefined): PaymentCredentials | undefined {
  if (!meta) return undefined;
  for (const carrier of carriers) {
    const found = carrier.fromMeta?.(meta);
    if (found) return found;
  }
  return undefined;
}
