import type { Store } from "../endpoint.ts";
import type { PaymentGate } from "../x402/gate.ts";
import type { Call, Outcome } from "../runtime/invoke.ts";
import { andThen } from "../runtime/maybe.ts";
import { paidHistoryKey, type PaidCall } from "../shared.ts";
import type { ServiceKey } from "./key.ts";
import { createOffers } from "./offers.ts";
import { receiptHeader, withReceipt } from "./receipt.ts";

/**
 * Any payment gate, its 402s carrying signed offers and its paid answers signed receipts (with a key), each paid
 * answer of a wallet a row of that wallet's history. Wrapped around the gate as a whole, so every way to pay (and
 * every refusal) goes through this one place as its answer leaves.
 */
export function aroundPaidAnswers(inner: PaymentGate, store: Store, key?: ServiceKey): PaymentGate {
  const offers = key && createOffers(key);
  return {
    ...inner,
    charge(call, work, price, commit) {
      // An unpaid call's 402 stays a value, not a promise (invoke.ts): its offers are signed once per route.
      return andThen(inner.charge(call, work, price, commit), (outcome: Outcome) => {
        if (outcome.status === 402) return offers ? offers.challenge(outcome) : outcome;
        if (outcome.status >= 300 || outcome.charged === undefined) return outcome;
        return paidAnswer(call, outcome, inner.requirements(call.endpoint, price).amount);
      });
    },
  };

  async function paidAnswer(call: Call, outcome: Outcome, price: string): Promise<Outcome> {
    const answered = key ? await withReceipt(key, outcome, call, price) : outcome;
    if (answered.payer) await recorded(store, call, answered);
    return answered;
  }
}

/** The paid call as a row of its wallet's history; a failure to write it is not the payer's: the answer still goes. */
async function recorded(store: Store, call: Call, outcome: Outcome) {
  const header = outcome.headers["payment-response"] ?? outcome.headers["x-payment-response"];
  const settlement = header ? JSON.parse(Buffer.from(header, "base64").toString("utf8")) : {};
  const row: PaidCall = {
    route: `${call.endpoint.method} ${call.endpoint.path}`,
    at: new Date().toISOString(),
    charged: outcome.charged!,
    network: settlement.network ?? "credit",
    ...(settlement.transaction ? { transaction: settlement.transaction } : {}),
    ...(outcome.headers[receiptHeader] ? { receipt: outcome.headers[receiptHeader] } : {}),
  };
  await store.rank(paidHistoryKey(outcome.payer!), JSON.stringify(row), Date.now()).catch(() => undefined);
}
