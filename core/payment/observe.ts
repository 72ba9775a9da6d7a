import type { Call, Outcome } from "../runtime/call.ts";
import { metrics, type PaymentOutcome } from "../runtime/prometheus.ts";
import { lastHour } from "../runtime/rolling.ts";
import { tracing, type Phase } from "../runtime/tracing.ts";
import type { Commit, PaymentTerms } from "./gate.ts";

/** How a call pays, in label values the service knows (never a caller's free text): its rail reads them once it has decoded the payment. */
export interface PaymentKind {
  protocol: string;
  scheme: string;
  network: string;
}

/** A credit code: the core's own way to pay, over no chain. */
export const creditKind: PaymentKind = { protocol: "credit", scheme: "credit", network: "none" };

type Work = (payer?: string, terms?: PaymentTerms) => Promise<Outcome>;

/**
 * A payment's phases as the gate goes through them, counted and traced: a gate that has read how a call pays
 * (`kind`, from the payment it decoded) runs the handler and the call's effects through `work` and `commit`, and
 * hands its answer to `done`. Verify runs until the handler starts; settle from the handler's answer until the
 * effects are committed (or the gate answers). A call that presents no payment is not observed: its 402 costs nothing more.
 */
export function observe(call: Call, kind: PaymentKind, work: Work, commit: Commit | undefined) {
  const tracer = tracing.tracer;
  const attributes = { "x402.protocol": kind.protocol, "x402.scheme": kind.scheme, "x402.network": kind.network };
  let phase: Phase | undefined = tracer?.start("verify", attributes);
  let ran: Outcome | undefined;
  let answeredAt = 0;
  let settledAt = 0;
  const watchedWork: Work = async (payer, terms) => {
    phase?.end();
    const handler = tracer?.start("handler");
    phase = undefined;
    const outcome = handler ? await handler.within(() => work(payer, terms)) : await work(payer, terms);
    handler?.end({ "http.response.status_code": outcome.status }, outcome.status >= 500);
    ran = outcome;
    answeredAt = performance.now();
    if (outcome.status < 400) phase = tracer?.start("settle", attributes);
    return outcome;
  };
  // The commit keeps its effects-as-data: the write-ahead record reads them before the settlement is sent.
  const watchedCommit: Commit | undefined =
    commit &&
    Object.assign(
      async (outcome: Outcome) => {
        settledAt = performance.now();
        phase?.end();
        phase = tracer?.start("effects");
        try {
          return phase ? await phase.within(() => commit(outcome)) : await commit(outcome);
        } finally {
          phase?.end();
          phase = undefined;
        }
      },
      { effects: commit.effects },
    );
  const done = (final: Outcome) => {
    const outcome = outcomeOf(final, ran);
    phase?.end(undefined, outcome === "settlement_failed" || outcome === "pending");
    count(call, kind, outcome, final, ran ? (settledAt || performance.now()) - answeredAt : undefined);
    return final;
  };
  const failed = (error: unknown): never => {
    phase?.end(undefined, true);
    count(call, kind, "error");
    throw error;
  };
  return {
    work: watchedWork,
    commit: watchedCommit,
    /** The gate's answer, counted with the phase it ended in. */
    done: (answer: Promise<Outcome>): Promise<Outcome> => answer.then(done, failed),
  };
}

const reasonOf = (o: Outcome) => (o.body as { reason?: unknown } | undefined)?.reason;
const codeOf = (o: Outcome) => (o.body as { error?: { code?: unknown } } | undefined)?.error?.code;

function outcomeOf(final: Outcome, ran: Outcome | undefined): PaymentOutcome {
  if (final.headers["x-payment-replayed"]) return "replayed";
  if (final.status === 409) return "duplicate";
  if (!ran) return final.status === 402 ? "refused" : final.status < 400 ? "refund" : "error";
  if (ran.status >= 400) return "handler_failed";
  if (final.status < 400) return "paid";
  if (final.status === 503 && codeOf(final) === "effect_failed") return "credited";
  if (final.status === 402) return reasonOf(final) === "settlement_pending" ? "pending" : "settlement_failed";
  return "error";
}

function count(call: Call, kind: PaymentKind, outcome: PaymentOutcome, final?: Outcome, settleMs?: number) {
  metrics.payments.inc({ ...kind, outcome });
  const moneyIn = outcome === "paid" || outcome === "credited";
  if (moneyIn && kind.protocol !== "credit" && /^\d+$/.test(final?.charged ?? ""))
    metrics.revenue.inc({ route: call.endpoint.path, network: kind.network }, Number(final!.charged));
  if (outcome === "pending") metrics.settlementsPending.inc({ network: kind.network });
  // A credit settles nothing: its balance was taken before the handler ran.
  if (kind.protocol === "credit" || settleMs === undefined) return;
  if (!(moneyIn || outcome === "settlement_failed" || outcome === "pending")) return;
  const settled = moneyIn ? "paid" : outcome;
  metrics.settlementSeconds.observe({ scheme: kind.scheme, network: kind.network, outcome: settled }, settleMs / 1000);
  lastHour.record("settlements", settleMs, settled !== "paid");
}
