import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { Logger } from "pino";
import type { Call, Outcome } from "../../../runtime/call.ts";
import { ServiceError, toErrorBody } from "../../../runtime/errors.ts";
import type { BatchSettlement, Hold } from "./settlement.ts";
import { challenge, encodeHeader } from "../../challenge.ts";
import { maxHeaderBytes } from "../../codec.ts";
import { x402Headers } from "../../carrier.ts";
import { x402KindOf } from "../../kind.ts";
import { observe } from "../../../payment/observe.ts";
import { metrics } from "../../../runtime/prometheus.ts";
import type { Credits } from "../../../payment/credits.ts";
import { decimalsOf, toTokenUnits, usedOf, type PaymentGate } from "../../../payment/gate.ts";
import type { BatchRequirement } from "../../requirements.ts";

export interface BatchGateParts {
  /** The rail of each network that takes vouchers. */
  batches: ReadonlyMap<string, BatchSettlement>;
  credits: Credits;
  log: Logger;
}

/** The v2 payload in a PAYMENT-SIGNATURE header when it pays with `batch-settlement`, else undefined. */
function batchPayloadOf(header: string | undefined): PaymentPayload | undefined {
  if (!header || header.length > maxHeaderBytes) return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as PaymentPayload;
    return decoded?.x402Version === 2 && decoded.accepted?.scheme === "batch-settlement" ? decoded : undefined;
  } catch {
    return undefined;
  }
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
 * `batch-settlement` beside the inner gate's `exact`: a voucher is checked against the channel's state (one
 * reservation per channel at a time, so racing calls cannot spend one increment twice), the work runs, and only
 * a success commits the voucher's increment; a failure releases the reservation and charges nothing. Deposits
 * and refunds go through the facilitator; claims leave later, in batches (the channel manager's timers).
 */
export function withBatchSettlement(inner: PaymentGate, { batches, credits, log }: BatchGateParts): PaymentGate {
  return {
    options: inner.options,
    requirements: inner.requirements,
    charge(call, work, price, commit) {
      const payload = batchPayloadOf(call.payment?.[x402Headers.v2]);
      if (!payload) return inner.charge(call, work, price, commit);
      const seen = observe(call, x402KindOf(payload, 2, inner.options), work, commit);
      return seen.done(payWithVoucher(call, payload, price, seen.work, seen.commit));
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

    const held = await batch
      .hold(payload, requirement)
      .catch((e: unknown): Hold => ({ refused: `unexpected_verify_error: ${String((e as Error)?.message ?? e)}` }));
    if ("refused" in held)
      return refused(call, price, payload, held.refused, `The voucher was refused: ${held.refused}`, requirement);
    if ("refund" in held) return refund(call, batch, payload, requirement);

    const payer = held.payer;
    const outcome = await work(payer, { payAsUsed: true });
    if (outcome.status >= 400) {
      await held.release();
      return outcome;
    }
    // Reserved on the channel was the whole price; what the call used (never more) is what is charged, in the
    // token's units (`used` counts USDC's six decimals, as credits do).
    const used = usedOf(outcome, route.amount);
    const decimals = decimalsOf(inner.options, requirement.network, requirement.asset);
    const moved = toTokenUnits(used, decimals);
    const settled = await held
      .commit(String(moved < BigInt(requirement.amount) ? moved : requirement.amount))
      .catch((e: unknown) => ({
        success: false as const,
        errorReason: String((e as Error)?.message ?? e),
        transaction: "",
        network: requirement.network,
      }));
    if (!settled.success) {
      await held.release().catch(() => undefined);
      const reason = settled.errorReason ?? "settlement_failed";
      return refused(call, price, payload, reason, `The voucher could not be accepted: ${reason}; nothing was charged`);
    }
    let result = commit ? await commit(outcome) : outcome;
    if (!result) {
      const creditCode = await credits.issue(used, `effects of ${call.endpoint.name} failed`);
      log.error({ endpoint: call.endpoint.name, payer, creditCode }, "a voucher-paid call's effects failed; credited");
      const error = new ServiceError(503, "effect_failed", "The call was paid but its change could not be saved", {
        creditCode,
      });
      result = { ...outcome, status: 503, body: toErrorBody(error) };
    }
    if (result.status < 400) metrics.vouchersAccepted.inc({ network: requirement.network });
    return {
      ...result,
      payer,
      charged: String(used),
      headers: { ...result.headers, "payment-response": encodeHeader(settled), "cache-control": "no-store" },
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
        const full = JSON.parse(Buffer.from(c.headers?.["payment-required"] ?? "", "base64").toString("utf8"));
        const accepts = [...route.v2, ...corrective.accepts, ...route.upto];
        c.headers = { ...c.headers, "payment-required": encodeHeader({ ...full, error: reason, accepts }) };
      }
    }
    return { ...c, body: { ...(c.body as object), reason } };
  }
}
