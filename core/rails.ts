import type { PaymentCredentials } from "./runtime/call.ts";
import { x402Carrier } from "./x402/carrier.ts";
import type { CredentialCarrier } from "./payment/carrier.ts";
import { creditCarrier } from "./payment/credits.ts";
import { signInCarrier } from "./sign-in/carrier.ts";
import { receiptHeader } from "./receipts/header.ts";

/** The ways to pay this service registers, and the way in to a wallet's own data: a second protocol is one more entry. */
const carriers: readonly CredentialCarrier[] = [x402Carrier, creditCarrier, signInCarrier];

export const paymentRequestHeaders = carriers.flatMap((c) => c.requestHeaders);
/** What the ways to pay answer with, and the signed receipt of a paid answer, whichever way paid. */
export const paymentResponseHeaders = [...carriers.flatMap((c) => c.responseHeaders), receiptHeader];

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
