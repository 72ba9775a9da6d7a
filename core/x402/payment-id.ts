import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { PaymentRejected } from "./codec.ts";

/** The `payment-identifier`'s documented format (@x402/extensions: 16 to 128 of A-Z, a-z, 0-9, `_` and `-`). */
const paymentIdFormat = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The `payment-identifier` a v2 payload carries, checked against the extension's fixed format by this code alone:
 * a schema the client sends with it is never compiled or run (a pattern of its choosing could hold the event loop).
 */
export function paymentIdOf(extensions: Record<string, unknown> | undefined): string | undefined {
  const info = (extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown; required?: unknown } } | undefined)?.info;
  if (info?.id === undefined) return undefined;
  if (typeof info.id !== "string" || !paymentIdFormat.test(info.id) || typeof info.required !== "boolean")
    throw new PaymentRejected(
      "invalid_payment_identifier",
      "The payment identifier must be 16-128 characters of A-Z, a-z, 0-9, _ and -, beside a boolean `required`",
    );
  return info.id;
}
