import type { PaymentWay } from "../payment/way.ts";
import type { PaidGate, PresentedAuthorization } from "../payment/paid-gate.ts";
import { bindPayment, type BoundPayment } from "./bind.ts";
import { PaymentRejected, checkPayment, paymentHeaderOf } from "./codec.ts";
import { x402KindOf } from "./kind.ts";
import type { PaymentOption, RouteRequirements } from "./requirements.ts";

/** How close to its end an authorization must be for a refused retry to look for the call it paid for. */
const nearExpiryMs = 10_000;
/** The binding refuses an authorization a few seconds before its end (scheme bindings): bound as of just before it. */
const beforeItsEndSeconds = 7;

/**
 * x402's exact and upto payments (v1 `X-PAYMENT`, v2 `PAYMENT-SIGNATURE`) as a way into the paid gate: the header
 * is read once per call, for the kind the phases are counted by and for the payment the scheme's binding takes.
 */
export function x402Way(gate: PaidGate<PaymentOption, RouteRequirements>): PaymentWay {
  return {
    take(call, price) {
      const header = paymentHeaderOf(call.payment);
      if (!header) return undefined;
      const { version, read } = header;
      const presented = presentedOf(read, version, gate.requirements(call.endpoint, price));
      return {
        kind: x402KindOf(read, version, gate.options),
        pay: (work, commit) => gate.authorized(call, price, presented, work, commit),
      };
    },
  };
}

/** What a payment header carried (its JSON, or why it carried none), as the paid gate asks of an authorization. */
function presentedOf(read: unknown, version: 1 | 2, route: RouteRequirements): PresentedAuthorization<BoundPayment> {
  const decoded = () => {
    if (read instanceof PaymentRejected) throw read;
    return checkPayment(read, version);
  };
  return {
    bind: (nowSeconds) => bindPayment(decoded(), route, nowSeconds),
    async boundAtItsEnd(nowMs) {
      const payment = decoded();
      const inner = payment.payload.payload as {
        authorization?: { validBefore?: string };
        permit2Authorization?: { deadline?: string };
      };
      const until = Number(inner.authorization?.validBefore ?? inner.permit2Authorization?.deadline);
      if (!Number.isSafeInteger(until) || until * 1000 > nowMs + nearExpiryMs) return undefined;
      return bindPayment(payment, route, until - beforeItsEndSeconds);
    },
    receipt: (bound, moved) => ({
      header: version === 2 ? "payment-response" : "x-payment-response",
      // What a pay-as-used payment settled, out of the most it authorized.
      body: {
        success: true,
        network: version === 2 ? bound.network : bound.requirement.network,
        payer: bound.payer,
        ...(moved !== undefined ? { amount: moved } : {}),
      },
    }),
  };
}
