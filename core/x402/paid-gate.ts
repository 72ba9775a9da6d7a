import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { Endpoint, Price } from "../endpoint.ts";
import type { Call, Outcome } from "../runtime/invoke.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import { stableJson } from "../runtime/invoke.ts";
import { ServiceError, toErrorBody } from "../runtime/errors.ts";
import { challenge, encodeHeader } from "./challenge.ts";
import { bindPayment, type BoundPayment } from "./bind.ts";
import { PaymentRejected, decodePayment } from "./codec.ts";
import type { Credits } from "./credits.ts";
import type { Facilitator, SettleResult } from "./facilitator.ts";
import type { PaymentGate } from "./gate.ts";
import { perRoute, requirementsCache } from "./gate.ts";
import type { ClaimRecord, Ledger } from "./ledger.ts";
import type { PaymentOption } from "./requirements.ts";

export interface PaidGateParts {
  options: PaymentOption[];
  baseUrl: string;
  facilitator: Facilitator;
  ledger: Ledger;
  credits: Credits;
  log: Logger;
  /** Rate limit per payer, once the payer is known. */
  limitPayer?: (payer: string) => MaybePromise<void>;
  now?: () => number;
}

/**
 * Settle-before-grant (design section 3, steps 5-10): decode, bind to our own requirements, check the
 * signature locally, claim, verify through the facilitator, run, settle, and only then answer.
 */
export function createPaidGate(parts: PaidGateParts): PaymentGate {
  const { facilitator, ledger, credits, log } = parts;
  const now = parts.now ?? Date.now;
  const requirements = requirementsCache(parts.options, parts.baseUrl);
  // Every unpaid request of a route gets the same (frozen, so serialized once) challenge.
  const unpaid = perRoute((endpoint, price) => Object.freeze(challenge(endpoint, requirements(endpoint, price), "Payment required")));
  const refuse = (endpoint: Endpoint, price: Price | undefined, reason: string, message: string, details?: object): Outcome => {
    const c = challenge(endpoint, requirements(endpoint, price), message);
    return { ...c, body: { ...(c.body as object), reason, ...details } };
  };

  async function payWithCredit(call: Call, code: string, price: Price | undefined, work: () => Promise<Outcome>): Promise<Outcome> {
    const amount = BigInt(requirements(call.endpoint, price).amount);
    if (!(await credits.spend(code, amount))) return refuse(call.endpoint, price, "credit_insufficient", "The credit code is unknown or its balance is too low");
    const outcome = await work();
    if (outcome.status >= 400) {
      await credits.fund(code, amount);
      return outcome;
    }
    const left = await credits.balance(code);
    return { ...outcome, charged: `credit:${amount}`, headers: { ...outcome.headers, "x-credit-balance": String(left ?? 0n), "cache-control": "no-store" } };
  }

  async function payWithAuthorization(call: Call, header: string, version: 1 | 2, price: Price | undefined, work: (payer?: `0x${string}`) => Promise<Outcome>): Promise<Outcome> {
    const route = requirements(call.endpoint, price);
    let bound: BoundPayment;
    try {
      bound = bindPayment(decodePayment(header, version), route, Math.floor(now() / 1000));
    } catch (e) {
      if (e instanceof PaymentRejected) return refuse(call.endpoint, price, e.reason, e.message);
      throw e;
    }
    const payer = bound.authorization.from as `0x${string}`;
    await parts.limitPayer?.(payer.toLowerCase());
    const fingerprint = createHash("sha256").update(`${call.endpoint.method} ${call.endpoint.path} ${stableJson(call.input)}`).digest("hex");
    const claim = await ledger.claim(bound, fingerprint);
    if (!claim.claimed) return replay(fingerprint, claim.existing);

    const verified = await facilitator.verify(bound.payload, bound.requirement).catch((e) => ({ isValid: false, invalidReason: "unexpected_verify_error", invalidMessage: String(e?.message ?? e) }));
    if (!verified.isValid) {
      await ledger.release(bound);
      return refuse(call.endpoint, price, verified.invalidReason ?? "invalid_payment", `The payment was refused: ${verified.invalidReason ?? "invalid"}`);
    }
    const outcome = await work(payer);
    if (outcome.status >= 400) {
      await ledger.release(bound);
      return outcome;
    }

    await ledger.settling(bound, fingerprint);
    let settled: SettleResult;
    try {
      settled = await facilitator.settle(bound.payload, bound.requirement);
    } catch (error) {
      return indeterminate(call, bound, fingerprint, price, error);
    }
    if (!settled.success) {
      if (settled.errorReason === "settlement_pending") return indeterminate(call, bound, fingerprint, price, settled);
      await ledger.settleFailed(bound);
      return refuse(call.endpoint, price, settled.errorReason ?? "settlement_failed", `Settlement failed: ${settled.errorReason ?? "unknown"}; nothing was charged and the answer is withheld`);
    }
    const receipt = { success: true, transaction: settled.transaction, network: version === 2 ? bound.network : bound.requirement.network, payer };
    const paid: Outcome = {
      ...outcome,
      payer,
      charged: route.amount,
      headers: { ...outcome.headers, [version === 2 ? "payment-response" : "x-payment-response"]: encodeHeader(receipt), "cache-control": "no-store" },
    };
    // The money moved: the answer is delivered even if the store fails now (the spent nonce still stops a replay).
    await ledger.settled(bound, fingerprint, paid, settled.transaction).catch((err) => log.error({ err, endpoint: call.endpoint.name, payer }, "settled payment not recorded"));
    return paid;
  }

  function replay(fingerprint: string, existing: ClaimRecord | undefined): Outcome {
    if (existing?.state === "settled" && existing.fingerprint === fingerprint) return { ...existing.outcome, headers: { ...existing.outcome.headers, "x-payment-replayed": "true" } };
    const message = existing?.state === "running"
      ? "This payment is already being used by a call in progress"
      : existing?.state === "settled" ? "This payment was already used for another request" : "This payment was already used";
    const details = existing && "creditCode" in existing ? { creditCode: existing.creditCode } : undefined;
    return { status: 409, body: toErrorBody(new ServiceError(409, "payment_already_used", message, details)), headers: { "cache-control": "no-store" } };
  }

  async function indeterminate(call: Call, bound: BoundPayment, fingerprint: string, price: Price | undefined, cause: unknown): Promise<Outcome> {
    const creditCode = await credits.issue(0n, `unsettled ${call.endpoint.name}`);
    await ledger.pending(bound, fingerprint, creditCode);
    log.warn({ endpoint: call.endpoint.name, payer: bound.authorization.from, cause: String((cause as Error)?.message ?? JSON.stringify(cause)) }, "settlement indeterminate; queued for reconciliation");
    return refuse(call.endpoint, price, "settlement_pending", "Settlement did not complete in time; if the transfer lands, its value is credited to creditCode (send it as X-CREDIT-CODE)", { creditCode });
  }

  return {
    options: parts.options,
    requirements,
    charge(call, work, price) {
      const p = call.payment ?? {};
      if (p.signature) return payWithAuthorization(call, p.signature, 2, price, work);
      if (p.xPayment) return payWithAuthorization(call, p.xPayment, 1, price, work);
      if (p.creditCode) return payWithCredit(call, p.creditCode, price, () => work());
      return unpaid(call.endpoint, price);
    },
  };
}
