import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { Logger } from "pino";
import type { Call, Outcome } from "../../../runtime/call.ts";
import { ServiceError, toErrorBody } from "../../../runtime/errors.ts";
import type { BatchSettlement, Hold } from "./settlement.ts";
import { challenge, encodeHeader } from "../../challenge.ts";
import { paymentHeaderOf } from "../../codec.ts";
import { decodeHeader } from "../../../shared.ts";
import { x402KindOf } from "../../kind.ts";
import { metrics } from "../../../runtime/prometheus.ts";
import type { Credits } from "../../../payment/credits.ts";
import { decimalsOf, toTokenUnits, usedOf, type PaymentGate } from "../../../payment/gate.ts";
import type { X402Gate } from "../../offers.ts";
import type { PaymentWay } from "../../../payment/way.ts";
import type { BatchRequirement } from "../../requirements.ts";
import { paymentIdOf } from "../../payment-id.ts";
import { crashPoint } from "../../../payment/crash-points.ts";
import { newCreditCode } from "../../../payment/credits.ts";
import { creditOriginOf, fundOnce } from "../../../payment/in-flight.ts";
import { fingerprintOf } from "../../../payment/paid-gate.ts";
import type { Store } from "../../../endpoint.ts";
import { voucherReasons } from "./voucher.ts";
import { createChannelOwners } from "./owners.ts";
import { voucherClaimKey, type VoucherInFlights, type VoucherRef } from "./voucher-in-flight.ts";

export interface BatchGateParts {
  /** The rail of each network that takes vouchers. */
  batches: ReadonlyMap<string, BatchSettlement>;
  credits: Credits;
  log: Logger;
  store: Store;
  /** The write-ahead record of each voucher between its hold and its commit (voucher-in-flight.ts). */
  inFlight: VoucherInFlights;
}

/** The voucher a payload carries (a plain voucher, or the first one beside a deposit). */
function voucherRefOf(payload: PaymentPayload, network: string): VoucherRef | undefined {
  const inner = payload.payload as { type?: unknown; voucher?: { channelId?: unknown; maxClaimableAmount?: unknown } };
  // A refund names the channel's last voucher again: it charges nothing.
  if (inner.type !== "voucher" && inner.type !== "deposit") return undefined;
  const voucher = inner.voucher;
  const { channelId, maxClaimableAmount: max } = voucher ?? {};
  if (typeof channelId !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(channelId)) return undefined;
  if (typeof max !== "string" || !/^\d{1,78}$/.test(max)) return undefined;
  return { network, channelId: channelId.toLowerCase(), max: String(BigInt(max)) };
}

/** The payer's payment identifier, when it sent a well-formed one (a malformed one simply gets no replay). */
function safePaymentId(payload: PaymentPayload): string | undefined {
  try {
    return paymentIdOf(payload.extensions);
  } catch {
    return undefined;
  }
}

/** The v2 payload in a PAYMENT-SIGNATURE header when it pays with `batch-settlement`, else undefined. */
function batchPayloadOf(call: Call): PaymentPayload | undefined {
  const header = paymentHeaderOf(call.payment);
  const decoded = header?.version === 2 ? (header.read as PaymentPayload | null) : undefined;
  return decoded?.x402Version === 2 && decoded.accepted?.scheme === "batch-settlement" ? decoded : undefined;
}

/**
 * The terms a payload accepted are ours when every term we set matches; a corrective 402 adds channel state to
 * `extra`, which a client echoes back, so extra fields of its own do not count.
 */
function sameTerms(ours: BatchRequirement, accepted: PaymentRequirements) {
  const extra = (accepted.extra ?? {}) as Record<string, unknown>;
  return (
    (["scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds"] as const).every(
      (k) => String(ours[k]).toLowerCase() === String(accepted[k]).toLowerCase(),
    ) &&
    (Object.keys(ours.extra) as (keyof BatchRequirement["extra"])[]).every(
      (k) => String(ours.extra[k]).toLowerCase() === String(extra[k]).toLowerCase(),
    )
  );
}

/**
 * `batch-settlement`, a way to pay registered into the paid gate beside `exact`: a voucher is checked against the channel's state (one
 * reservation per channel at a time, so racing calls cannot spend one increment twice), the work runs, and only
 * a success commits the voucher's increment; a failure releases the reservation and charges nothing. Deposits
 * and refunds go through the facilitator; claims leave later, in batches (the channel manager's timers).
 */
export function voucherWay(inner: X402Gate, { batches, credits, log, store, inFlight }: BatchGateParts): PaymentWay {
  const owners = createChannelOwners(store, batches);
  return {
    channels: (wallet) => owners.of(wallet),
    take(call, price) {
      const payload = batchPayloadOf(call);
      if (!payload) return undefined;
      return {
        kind: x402KindOf(payload, 2, inner.options),
        pay: (work, commit) => payWithVoucher(call, payload, price, work, commit),
      };
    },
  };

  async function payWithVoucher(
    call: Call,
    payload: PaymentPayload,
    price: Parameters<PaymentGate["charge"]>[2],
    work: Parameters<PaymentGate["charge"]>[1],
    commit: Parameters<PaymentGate["charge"]>[3],
  ): Promise<Outcome> {
    const route = inner.requirements(call.endpoint, price);
    const requirement = route.batch.find((r) => sameTerms(r, payload.accepted)) as PaymentRequirements | undefined;
    const batch = requirement && batches.get(requirement.network);
    if (!requirement || !batch)
      return refused(call, price, payload, "invalid_payment_requirements", "Not this route's terms");

    const ref = voucherRefOf(payload, requirement.network);
    const paymentId = safePaymentId(payload);
    // The request is fingerprinted for a retry that names the payment, which alone gets a kept answer back.
    const fingerprint = paymentId === undefined ? "" : fingerprintOf(call);
    if (ref) {
      const before = await retried(ref, fingerprint, paymentId);
      if (before) return before;
    }

    const held = await batch
      .hold(payload, requirement)
      .catch((e: unknown): Hold => ({ refused: `unexpected_verify_error: ${String((e as Error)?.message ?? e)}` }));
    if ("refused" in held)
      return refused(call, price, payload, held.refused, `The voucher was refused: ${held.refused}`, requirement);
    if ("refund" in held) return refund(call, batch, payload, requirement);

    const payer = held.payer;
    const listing = owners.deposited(payload, requirement.network);
    if (listing) await listing.catch((err: unknown) => log.error({ err }, "channel not listed"));
    crashPoint("voucher-held", payer);
    const outcome = await work(payer, { payAsUsed: true });
    crashPoint("handled", payer);
    if (outcome.status >= 400) {
      await held.release();
      return outcome;
    }
    // Reserved on the channel was the whole price; what the call used (never more) is what is charged, in the
    // token's units (`used` counts USDC's six decimals, as credits do).
    const used = usedOf(outcome, route.amount);
    const decimals = decimalsOf(inner.options, requirement.network, requirement.asset);
    const moved = toTokenUnits(used, decimals);
    const amount = String(moved < BigInt(requirement.amount) ? moved : requirement.amount);
    // Without a voucher (a payload the scheme's own path takes whole), nothing is written ahead.
    const r =
      ref &&
      inFlight.recordOf(
        { ...ref, before: String(BigInt(ref.max) - BigInt(requirement.amount)) },
        {
          fingerprint,
          paymentId,
          endpoint: call.endpoint.name,
          payer,
          charged: String(used),
          asset: requirement.asset,
          payTo: requirement.payTo,
          creditCode: newCreditCode(),
          receipt: { header: "payment-response", body: { success: true, network: requirement.network, payer, amount } },
          answer: outcome,
          effects: commit ? commit.effects?.() : [],
        },
      );
    if (r && !(await inFlight.writeAhead(r).catch(() => false))) {
      await held.release().catch(() => undefined);
      return refused(
        call,
        price,
        payload,
        voucherReasons.busy,
        "A voucher on this channel is being finished; retry shortly",
      );
    }
    crashPoint("written-ahead", payer);
    const settled = await held.commit(amount).catch((e: unknown) => ({
      success: false as const,
      errorReason: String((e as Error)?.message ?? e),
      transaction: "",
      network: requirement.network,
    }));
    if (!settled.success) {
      await held.release().catch(() => undefined);
      if (r) await inFlight.forget(r);
      const reason = settled.errorReason ?? "settlement_failed";
      return refused(call, price, payload, reason, `The voucher could not be accepted: ${reason}; nothing was charged`);
    }
    crashPoint("settled", payer);
    // A resolver took over a call this slow: it finishes it, and the payer's retry gets the answer or a credit.
    if (r && !(await inFlight.take(r))) return inProgress(r.at);
    let result = commit ? await commit(outcome) : outcome;
    if (!result) {
      const creditCode = r
        ? r.settlement.creditCode
        : await credits.issue(used, `effects of ${call.endpoint.name} failed`, payer);
      if (r) await fundOnce(store, credits, log, r.settlement.claimKey, creditCode, used, "", creditOriginOf(r));
      log.error({ endpoint: call.endpoint.name, payer, creditCode }, "a voucher-paid call's effects failed; credited");
      const error = new ServiceError(503, "effect_failed", "The call was paid but its change could not be saved", {
        creditCode,
      });
      result = { ...outcome, status: 503, body: toErrorBody(error) };
    }
    crashPoint("effects-applied", payer);
    if (result.status < 400) metrics.vouchersAccepted.inc({ network: requirement.network });
    const paid: Outcome = {
      ...result,
      payer,
      charged: String(used),
      paidAt: Date.now(),
      headers: { ...result.headers, "payment-response": encodeHeader(settled), "cache-control": "no-store" },
    };
    if (r) await inFlight.settled(r, paid);
    return paid;
  }

  /**
   * A voucher seen before: its answer goes back to a retry with the payer's payment identifier for the same
   * request; one whose commit is unresolved waits. A voucher that was never committed is simply taken again.
   */
  async function retried(ref: VoucherRef, fingerprint: string, paymentId: string | undefined) {
    const pending = await inFlight.onChannel(ref);
    if (pending?.settlement.claimKey === voucherClaimKey(ref)) return inProgress(pending.at);
    if (paymentId === undefined) return undefined;
    const done = await inFlight.finishedOf(ref);
    const own = done?.paymentId === paymentId && done.fingerprint === fingerprint;
    // Anyone else's copy of a used voucher takes the scheme's path, whose corrective 402 resyncs a client.
    if (!own) return undefined;
    if (done.state === "settled")
      return { ...done.outcome, headers: { ...done.outcome.headers, "x-payment-replayed": "true" } } as Outcome;
    if (done.state !== "credited") return undefined;
    const error = new ServiceError(409, "payment_already_used", "This voucher's price was credited", {
      creditCode: done.creditCode,
    });
    return { status: 409, body: toErrorBody(error), headers: { "cache-control": "no-store" } } as Outcome;
  }

  function inProgress(since: number): Outcome {
    const seconds = inFlight.retryAfterSeconds(since);
    const error = new ServiceError(
      409,
      "settlement_in_progress",
      "This voucher's charge is being finished; retry with the same payment identifier after Retry-After seconds for the answer (or a credit code)",
      { retryAfterSeconds: seconds },
    );
    return {
      status: 409,
      body: toErrorBody(error),
      headers: { "retry-after": String(seconds), "cache-control": "no-store" },
    };
  }

  /** A cooperative refund the payer asked for: nothing runs, the facilitator returns the unclaimed deposit. */
  async function refund(
    call: Call,
    batch: BatchSettlement,
    payload: PaymentPayload,
    requirement: PaymentRequirements,
  ): Promise<Outcome> {
    const settled = await batch.refund(payload, requirement);
    if (!settled.success) {
      const reason = settled.errorReason ?? "refund_failed";
      return refused(call, undefined, payload, reason, `The refund failed: ${reason}`, requirement);
    }
    return {
      status: 200,
      body: { refunded: true, transaction: settled.transaction },
      headers: { "payment-response": encodeHeader(settled), "cache-control": "no-store" },
    };
  }

  /** A 402 that also carries the channel's state when the server has it, so the client can resync its voucher base. */
  async function refused(
    call: Call,
    price: Parameters<PaymentGate["charge"]>[2],
    payload: PaymentPayload,
    reason: string,
    message: string,
    requirement?: PaymentRequirements,
  ): Promise<Outcome> {
    const route = inner.requirements(call.endpoint, price);
    const c = challenge(call.endpoint, route, message);
    const batch = requirement && batches.get(requirement.network);
    if (requirement && batch) {
      // The reason is the error the scheme (and the client's resync) recognizes; the scheme writes into the copy.
      const corrective = await batch.server
        .createPaymentRequiredResponse([{ ...requirement }], route.resource, reason, undefined, undefined, payload)
        .catch(() => undefined);
      if (corrective) {
        const full = decodeHeader<object>(c.headers?.["payment-required"] ?? "");
        const accepts = [...route.v2, ...corrective.accepts, ...route.upto];
        c.headers = { ...c.headers, "payment-required": encodeHeader({ ...full, error: reason, accepts }) };
      }
    }
    return { ...c, body: { ...(c.body as object), reason } };
  }
}
