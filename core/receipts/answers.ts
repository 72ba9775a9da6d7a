import type { Store } from "../endpoint.ts";
import type { GateAnswers } from "../payment/gate.ts";
import type { Call, Outcome } from "../runtime/call.ts";
import type { Config } from "../runtime/config.ts";
import { paidHistoryKey, type PaidCall } from "../shared.ts";
import { receiptHeader } from "./header.ts";
import { createOffers } from "./offers.ts";
import { settlementOf, withReceipt } from "./receipt.ts";
import { serviceKeyOf } from "./setup.ts";

/**
 * What the paid gate adds as its answers leave: signed offers on every 402 and a signed receipt on every paid
 * answer (with the service key, when receipts are on), and each paid answer a row of its payer's history.
 */
export function receiptAnswers(config: Config, store: Store): GateAnswers {
  const key = serviceKeyOf(config);
  const offers = key && createOffers(key);
  return {
    // An unpaid call's 402 stays a value, not a promise (invoke.ts): its offers are signed once per route.
    challenge: (_call, outcome) => (offers ? offers.challenge(outcome) : outcome),
    async paid(call, outcome, price) {
      const paid = settlementOf(outcome);
      const answered = key ? await withReceipt(key, outcome, call, price, paid) : outcome;
      if (answered.payer && !outcome.headers["x-payment-replayed"])
        await recorded(store, call, answered, paid.settlement);
      return answered;
    },
  };
}

/** The paid call as a row of its wallet's history; a failure to write it is not the payer's: the answer still goes. */
async function recorded(store: Store, call: Call, outcome: Outcome, settlement: Record<string, unknown> = {}) {
  const row: PaidCall = {
    route: `${call.endpoint.method} ${call.endpoint.path}`,
    at: new Date().toISOString(),
    charged: outcome.charged!,
    network: (settlement.network as string | undefined) ?? "credit",
    ...(settlement.transaction ? { transaction: settlement.transaction as string } : {}),
    ...(outcome.headers[receiptHeader] ? { receipt: outcome.headers[receiptHeader] } : {}),
  };
  await store.rank(paidHistoryKey(outcome.payer!), JSON.stringify(row), Date.now()).catch(() => undefined);
}
