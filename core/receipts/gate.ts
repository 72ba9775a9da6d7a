import type { PaymentGate } from "../x402/gate.ts";
import type { Outcome } from "../runtime/invoke.ts";
import { andThen } from "../runtime/maybe.ts";
import type { ServiceKey } from "./key.ts";
import { createOffers } from "./offers.ts";
import { withReceipt } from "./receipt.ts";

/**
 * Any payment gate, its 402s carrying signed offers and its paid answers signed receipts. Wrapped around the
 * gate as a whole, so every way to pay (and every refusal) gets them from one place.
 */
export function withOffersAndReceipts(inner: PaymentGate, key: ServiceKey): PaymentGate {
  const offers = createOffers(key);
  return {
    ...inner,
    charge(call, work, price, commit) {
      return andThen(inner.charge(call, work, price, commit), (outcome: Outcome) => {
        if (outcome.status === 402) return offers.challenge(outcome);
        if (outcome.status >= 300 || outcome.charged === undefined) return outcome;
        return withReceipt(key, outcome, call, inner.requirements(call.endpoint, price).amount);
      });
    },
  };
}
