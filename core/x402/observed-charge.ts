import type { Price } from "../endpoint.ts";
import type { Call, Outcome } from "../runtime/call.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import { metrics, type PaymentOutcome } from "../runtime/prometheus.ts";
import { lastHour } from "../runtime/rolling.ts";
import { tracing, type Phase } from "../runtime/tracing.ts";
import { maxHeaderBytes } from "./codec.ts";
import { x402Headers } from "./carrier.ts";
import { creditHeader } from "../payment/credits.ts";
import type { Commit, PaymentGate } from "../payment/gate.ts";
import { networkOfV1Name } from "./requirements.ts";

interface PaymentKind {
  protocol: "x402v2" | "x402v1" | "credit";
  scheme: string;
  network: string;
}

const schemes = new Set(["exact", "upto", "batch-settlement"]);

/** How the call says it pays, in label values the service knows (never a caller's free text); undefined: it does not. */
function kindOf(call: Call, gate: PaymentGate): PaymentKind | undefined {
  const p = call.payment;
  const header = p?.[x402Headers.v2] ?? p?.[x402Headers.v1];
  if (header) {
    const v2 = Boolean(p?.[x402Headers.v2]);
    const decoded = decode(header);
    const terms = (v2 ? decoded?.accepted : decoded) as { scheme?: unknown; network?: unknown } | undefined;
    const network = v2 ? terms?.network : networkOfV1Name(String(terms?.network));
    return {
      protocol: v2 ? "x402v2" : "x402v1",
      scheme: schemes.has(terms?.scheme as string) ? (terms?.scheme as string) : "other",
      network: gate.options.some((o) => o.network === network) ? (network as string) : "other",
    };
  }
  if (p?.[creditHeader]) return { protocol: "credit", scheme: "credit", network: "none" };
  return undefined;
}

function decode(header: string): { accepted?: unknown; scheme?: unknown; network?: unknown } | undefined {
  if (header.length > (maxHeaderBytes * 4) / 3 + 4) return undefined;
  try {
    return JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The payment gate's `charge`, counted and traced: the phases of a payment are read from when the gate calls the
 * handler (`work`) and the call's effects (`commit`), so the gates themselves say nothing of metrics or traces.
 * Verify runs until the handler starts; settle from the handler's answer until the effects are committed (or the
 * gate answers). A call that presents no payment goes straight to the gate: its 402 costs nothing more.
 */
export function observedCharge(
  gate: PaymentGate,
  call: Call,
  work: Parameters<PaymentGate["charge"]>[1],
  price: Price | undefined,
  commit: Commit | undefined,
): MaybePromise<Outcome> {
  const kind = kindOf(call, gate);
  if (!kind) return gate.charge(call, work, price, commit);
  const tracer = tracing.tracer;
  const attributes = { "x402.protocol": kind.protocol, "x402.scheme": kind.scheme, "x402.network": kind.network };
  let phase: Phase | undefined = tracer?.start("verify", attributes);
  let ran: Outcome | undefined;
  let answeredAt = 0;
  let settledAt = 0;
  const watchedWork: typeof work = async (payer, terms) => {
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
  try {
    const charged = gate.charge(call, watchedWork, price, watchedCommit);
    return charged instanceof Promise ? charged.then(done, failed) : done(charged);
  } catch (error) {
    return failed(error);
  }
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
  if (outcome === "paid" && kind.scheme === "batch-settlement") metrics.vouchersAccepted.inc({ network: kind.network });
  if (outcome === "pending") metrics.settlementsPending.inc({ network: kind.network });
  // A credit settles nothing: its balance was taken before the handler ran.
  if (kind.protocol === "credit" || settleMs === undefined) return;
  if (!(moneyIn || outcome === "settlement_failed" || outcome === "pending")) return;
  const settled = moneyIn ? "paid" : outcome;
  metrics.settlementSeconds.observe({ scheme: kind.scheme, network: kind.network, outcome: settled }, settleMs / 1000);
  lastHour.record("settlements", settleMs, settled !== "paid");
}
