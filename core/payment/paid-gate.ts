import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { Endpoint, Price } from "../endpoint.ts";
import type { Call, Outcome } from "../runtime/call.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import { ServiceError, toErrorBody } from "../runtime/errors.ts";
import { stableJson } from "../shared.ts";
import { creditKind, observe } from "./observe.ts";
import { creditHeader, newCreditCode, type Credits } from "./credits.ts";
import type { Store } from "../endpoint.ts";
import { crashPoint } from "./crash-points.ts";
import { creditOriginOf, fundOnce, holder, paidAnswer } from "./in-flight.ts";
import type { Journal } from "./journal.ts";
import type { Facilitator, SettleResult } from "./facilitator.ts";
import type { Commit, GateAnswers, Offers, PaymentGate, RouteQuote, TokenOption } from "./gate.ts";
import { decimalsOf, perRoute, toTokenUnits, usedOf } from "./gate.ts";
import { claimKeyOf, type ClaimRecord, type Holder, type InFlight, type Ledger } from "./ledger.ts";
import { PaymentRejected, type Authorization } from "./payment.ts";
import type { Reservation } from "./reservations.ts";
import type { PaymentWay, Work } from "./way.ts";

const min = (a: bigint, b: bigint) => (a < b ? a : b);
/** The request a payment pays for: its answer goes back only to a retry of the same request. */
export const fingerprintOf = (call: Call) =>
  createHash("sha256")
    .update(`${call.endpoint.method} ${call.endpoint.path} ${stableJson(call.input)}`)
    .digest("hex");

export interface PaidGateParts<O extends TokenOption, Q extends RouteQuote> {
  /** The rail's offers: each route's quote and the 402 made of it. */
  offers: Offers<O, Q>;
  facilitator: Facilitator;
  ledger: Ledger;
  credits: Credits;
  store: Store;
  log: Logger;
  /** Where a payment that moved while the store failed is kept until the store is back (journal.ts). */
  journal?: Journal;
  /** How long a write-ahead record waits for its own process before another one finishes it (reconcile.ts). */
  resolveAfterMs?: number;
  /** The handlers' deadline (an endpoint's own `timeoutMs` wins): a claim older than it plus `resolveAfterMs`, with no write-ahead record, belongs to a call that died. */
  handlerTimeoutMs?: number;
  /** Rate limit per payer, once the payer is proven. */
  limitPayer?: (payer: string) => MaybePromise<void>;
  /** What every 402 and every paid answer carry as they leave (core/receipts: signed offers, receipts, history). */
  answers?: GateAnswers;
  /** Proves a contract wallet's signature on-chain; without it the facilitator's verify does. */
  proveContractSignature?: (payment: Authorization) => Promise<boolean>;
  now?: () => number;
}

/**
 * A signed authorization a way to pay presents to the paid gate (x402's exact and upto payments): the rail binds it
 * to the route, and names the receipt of its settlement.
 */
export interface PresentedAuthorization<A extends Authorization = Authorization> {
  /** Binds it to the route's requirements at `nowSeconds`; a payment refused throws PaymentRejected with its reason. */
  bind(nowSeconds: number): Promise<A>;
  /**
   * Bound as of just before its end, when it has ended or nearly (`nowMs`) and names a payer's payment identifier:
   * a retry of the call it paid for. Undefined otherwise.
   */
  boundAtItsEnd(nowMs: number): Promise<A | undefined>;
  /** The header that carries a settlement's receipt, and what it says besides the transaction; `moved` when paid as used. */
  receipt(bound: A, moved: string | undefined): InFlight["receipt"];
}

/**
 * The paid gate, into which the ways to pay register (x402's payments, then its vouchers): each paid answer leaves
 * through it. A way registered later is asked first, as it takes narrower credentials than the rail it refines (a
 * voucher is an x402 payment header too). Credit codes are the gate's own.
 */
export interface PaidGate<O extends TokenOption = TokenOption, Q extends RouteQuote = RouteQuote>
  extends PaymentGate<O, Q> {
  register(way: PaymentWay): void;
  /** Settle-before-grant of a signed authorization (design section 3, steps 5-10), for the way that presents it. */
  authorized<A extends Authorization>(
    call: Call,
    price: Price | undefined,
    presented: PresentedAuthorization<A>,
    work: Work,
    commit?: Commit,
  ): Promise<Outcome>;
}

const fundsMessage = "The payer's funds do not cover this payment beside its other payments in progress";
const unreserved: Reservation = { total: 0n, shared: false, stillCovered: async () => true, release: async () => {} };

/**
 * Settle-before-grant (design section 3, steps 5-10): decode, bind to our own requirements, prove the
 * signer, claim, verify through the facilitator, run, settle, commit the call's effects, and only then answer.
 */
export function createPaidGate<O extends TokenOption, Q extends RouteQuote>(
  parts: PaidGateParts<O, Q>,
): PaidGate<O, Q> {
  const { offers, facilitator, ledger, credits, store, log } = parts;
  const now = parts.now ?? Date.now;
  const resolveAfterMs = parts.resolveAfterMs ?? 120_000;
  const handlerTimeoutMs = parts.handlerTimeoutMs ?? 25_000;
  const { requirements } = offers;
  // Every unpaid request of a route gets the same (frozen, so serialized once) challenge.
  const unpaid = perRoute((endpoint, price) =>
    Object.freeze(offers.challenge(endpoint, requirements(endpoint, price), "Payment required")),
  );
  const refuse = (
    endpoint: Endpoint,
    price: Price | undefined,
    reason: string,
    message: string,
    details?: object,
  ): Outcome => {
    const c = offers.challenge(endpoint, requirements(endpoint, price), message);
    return { ...c, body: { ...(c.body as object), reason, ...details } };
  };
  const verifiedByFacilitator = async (p: Authorization) =>
    (await facilitator.verify(p.payload, p.requirement).catch(() => ({ isValid: false }))).isValid;
  const proveContractSignature = parts.proveContractSignature ?? verifiedByFacilitator;
  /** What the payer of `p` holds now, when the facilitator can read it (the facilitators whose fees we pay). */
  const fundsOf = (p: Authorization) => async () =>
    facilitator.funds?.(p.payload, p.requirement).catch(() => undefined);
  /** A contract wallet's signature, proven where its scheme says: on-chain, or by the facilitator's verify. */
  const proveSigner = (p: Authorization) =>
    p.scheme.provenBy === "chain"
      ? proveContractSignature(p)
      : p.scheme.provenBy === "facilitator" && verifiedByFacilitator(p);

  /**
   * The call's reservations and writes, once it is paid for. When its writes cannot be applied, nothing of them is
   * kept and `credit` gives back what was charged: the payer gets a 503 that names the credit.
   */
  async function committed(
    call: Call,
    outcome: Outcome,
    commit: Commit | undefined,
    credit: () => Promise<object>,
  ): Promise<Outcome> {
    const final = commit ? await commit(outcome) : outcome;
    if (final) return final;
    const details = await credit();
    log.error(
      { endpoint: call.endpoint.name, reqId: call.requestId, ...details },
      "a paid call's effects could not be applied; its price was credited",
    );
    const error = new ServiceError(
      503,
      "effect_failed",
      "The call was paid but its change could not be saved; the price is credited (spend it as X-CREDIT-CODE)",
      details,
    );
    return { ...outcome, status: 503, body: toErrorBody(error) };
  }

  async function payWithCredit(
    call: Call,
    code: string,
    price: Price | undefined,
    work: () => Promise<Outcome>,
    commit?: Commit,
  ): Promise<Outcome> {
    const amount = BigInt(requirements(call.endpoint, price).amount);
    if (!(await credits.spend(code, amount)))
      return refuse(
        call.endpoint,
        price,
        "credit_insufficient",
        "The credit code is unknown or its balance is too low",
      );
    const outcome = await work();
    if (outcome.status >= 400) {
      await credits.fund(code, amount);
      return outcome;
    }
    const result = await committed(call, outcome, commit, async () => {
      await credits.fund(code, amount);
      return { creditCode: code, refunded: String(amount) };
    });
    const left = await credits.balance(code);
    const charged = result.status < 400 ? { charged: `credit:${amount}` } : {};
    return {
      ...result,
      ...charged,
      headers: { ...result.headers, "x-credit-balance": String(left ?? 0n), "cache-control": "no-store" },
    };
  }

  async function payWithAuthorization<A extends Authorization>(
    call: Call,
    price: Price | undefined,
    presented: PresentedAuthorization<A>,
    work: Work,
    commit?: Commit,
  ): Promise<Outcome> {
    const route = requirements(call.endpoint, price);
    let bound: A;
    try {
      bound = await presented.bind(Math.floor(now() / 1000));
    } catch (e) {
      if (!(e instanceof PaymentRejected)) throw e;
      return (await finishedBefore(call, presented)) ?? refuse(call.endpoint, price, e.reason, e.message);
    }
    // Nothing below (a per-payer count, a ledger look-up) happens for a signer that is not proven.
    // Only an EVM contract wallet's signature is left unproven by the binding (a Solana payer's is proven there).
    if (!bound.signerProven && !(await proveSigner(bound))) {
      return refuse(call.endpoint, price, bound.scheme.invalidSignature, "The signature does not prove the payer");
    }
    const payer = bound.payer;
    await parts.limitPayer?.(bound.scheme.canonical(payer));
    const fingerprint = fingerprintOf(call);
    const { paymentId } = bound;
    const claim = await ledger.claim(bound, fingerprint, paymentId);
    if (!claim.claimed) return retried(call, price, bound, fingerprint, claim.existing);
    crashPoint("claimed", bound.payer);

    // Reserved before the funds are read, so the read already counts every settlement that gave its amount back.
    const reservation = facilitator.funds ? await ledger.reserve(bound) : unreserved;
    const [verified, held] = await Promise.all([
      facilitator.verify(bound.payload, bound.requirement).catch((e) => ({
        isValid: false,
        invalidReason: "unexpected_verify_error",
        invalidMessage: String(e?.message ?? e),
      })),
      reservation.shared ? fundsOf(bound)() : undefined,
    ]);
    const funded = held === undefined || held >= reservation.total;
    if (!verified.isValid || !funded) {
      await Promise.all([ledger.release(bound), reservation.release()]);
      if (verified.isValid) return refuse(call.endpoint, price, bound.scheme.insufficientFunds, fundsMessage);
      const remedy = bound.scheme.remedy?.(verified.invalidReason ?? "", bound);
      return refuse(
        call.endpoint,
        price,
        verified.invalidReason ?? "invalid_payment",
        remedy?.message ?? `The payment was refused: ${verified.invalidReason ?? "invalid"}`,
        remedy?.details,
      );
    }
    // From here the authorization belongs to this call: it is never handed back for another request.
    const asUsed = bound.scheme.payAsUsed;
    const outcome = await work(payer, asUsed ? { payAsUsed: true } : undefined);
    crashPoint("handled", bound.payer);
    if (outcome.status >= 400) {
      await Promise.all([ledger.spent(bound, fingerprint, paymentId), reservation.release()]);
      return outcome;
    }
    // A pay-as-used payment settles what the call used, in the token's units, never more than it authorized (the route's quote).
    // `value` is the same in USDC atomic units: what the log counts and a credit gives back.
    const value = asUsed ? usedOf(outcome, route.amount) : BigInt(route.amount);
    const decimals = decimalsOf(offers.options, bound.network, bound.requirement.asset);
    const moved = asUsed ? String(min(toTokenUnits(value, decimals), BigInt(bound.amount))) : bound.amount;
    const charged = String(value);
    const requirement = asUsed ? { ...bound.requirement, amount: moved } : bound.requirement;

    const receipt = presented.receipt(bound, asUsed ? moved : undefined);
    const effects = commit ? commit.effects?.() : [];
    const inFlight = ledger.inFlightOf(bound, {
      fingerprint,
      paymentId,
      endpoint: call.endpoint.name,
      payer,
      charged,
      receipt,
      creditCode: newCreditCode(),
      amount: moved,
      answer: outcome,
      effects,
    });

    // Written ahead, so that another process finishes the call if this one dies; the payer may have moved its money during a long call.
    const [covered, ahead] = await Promise.all([
      reservation.stillCovered(fundsOf(bound)),
      ledger.writeAhead(bound, inFlight),
    ]).catch(async (error) => {
      await reservation.release();
      throw error;
    });
    if (!ahead) {
      await reservation.release();
      return usedUp(
        "This payment was given up after its call outlived its deadline; nothing was charged: sign a new payment",
      );
    }
    crashPoint("written-ahead", bound.payer);
    let settled: SettleResult;
    try {
      settled = covered
        ? await facilitator.settle(bound.payload, requirement)
        : { success: false, errorReason: bound.scheme.insufficientFunds, transaction: "", network: bound.network };
    } catch (error) {
      return indeterminate(call, bound, fingerprint, price, error, moved, charged);
    } finally {
      await reservation.release();
    }
    if (!settled.success) {
      if (settled.errorReason === "settlement_pending")
        return indeterminate(call, bound, fingerprint, price, settled, moved, charged);
      await ledger.settleFailed(bound, fingerprint, paymentId);
      return refuse(
        call.endpoint,
        price,
        settled.errorReason ?? "settlement_failed",
        `Settlement failed: ${settled.errorReason ?? "unknown"}; nothing was charged and the answer is withheld`,
      );
    }
    crashPoint("settled", bound.payer);
    return finishLive(call, bound, inFlight, settled.transaction, outcome, commit, effects?.length === 0);
  }

  /**
   * A retry of an authorization that expired since its call: when that call was charged (its answer, or its credit,
   * was finished after the payer's last try), the retry still gets it; while its fate is unresolved, it is in
   * progress (it may have landed: "expired" would send the payer to pay twice). An expired payment is never
   * claimed anew.
   */
  async function finishedBefore<A extends Authorization>(
    call: Call,
    presented: PresentedAuthorization<A>,
  ): Promise<Outcome | undefined> {
    try {
      const bound = await presented.boundAtItsEnd(now());
      if (!bound?.signerProven || bound.paymentId === undefined) return undefined;
      const existing = await ledger.claimOf(claimKeyOf(bound));
      if (!existing) return undefined;
      return await retried(call, undefined, bound, fingerprintOf(call), existing);
    } catch {
      return undefined;
    }
  }

  /**
   * The money moved: this process finishes the call (its effects, or a credit when they cannot be applied), unless
   * a resolver took it over because this process was too slow. When the store fails from here, the payer still gets
   * the answer (its effects were applied) or the record's credit code, and the journal records it once the store is back.
   */
  async function finishLive(
    call: Call,
    bound: Authorization,
    r: InFlight,
    transaction: string,
    outcome: Outcome,
    commit: Commit | undefined,
    /** The call changes nothing once paid: its answer needs no store to be delivered. */
    effectFree: boolean,
  ): Promise<Outcome> {
    const mine = holder("live", transaction);
    const { claimKey, creditCode } = r.settlement;
    let held: Holder | undefined;
    let delivered: Outcome | undefined;
    try {
      if (!(await ledger.takeResolution(claimKey, mine))) return inProgress(r);
      held = mine;
      const result = await committed(call, outcome, commit, async () => {
        await fundOnce(store, credits, log, claimKey, creditCode, BigInt(r.charged), transaction, creditOriginOf(r));
        return { creditCode };
      });
      crashPoint("effects-applied", r.payer);
      delivered = paidAnswer(result, r, transaction);
      await ledger.settled(bound, r.fingerprint, r.paymentId, delivered, transaction, r.charged);
      return delivered;
    } catch (err) {
      delivered ??= effectFree ? paidAnswer(outcome, r, transaction) : undefined;
      if (!parts.journal) {
        log.error({ err, endpoint: r.endpoint, payer: r.payer, transaction }, "settled payment not recorded");
        return delivered ?? creditedLater(r, transaction);
      }
      // Taking the resolution may have reached the store with its reply lost: the journal keeps the holder this
      // process tried to be, and a payer not yet answered waits for whoever does hold it (the answer or the credit).
      parts.journal.add({ record: r, transaction, holder: held ?? mine, delivered }, err);
      return delivered ?? (held ? creditedLater(r, transaction) : inProgress(r));
    }
  }

  /** The money moved and the store failed before the call's change was saved: the price goes to the record's credit code. */
  function creditedLater(r: InFlight, transaction: string): Outcome {
    const error = new ServiceError(
      503,
      "effect_failed",
      "The call was paid but the store failed before its change was saved; the price is credited to creditCode once the store is back (spend it as X-CREDIT-CODE)",
      { creditCode: r.settlement.creditCode },
    );
    return paidAnswer({ status: 503, body: toErrorBody(error), headers: { "retry-after": "5" } }, r, transaction);
  }

  /** A settlement sent and not yet finished: its payer's retry (same payment identifier) gets the answer or a credit once it is. */
  function inProgress(r: InFlight): Outcome {
    const seconds = Math.max(1, Math.ceil((r.at + resolveAfterMs - now()) / 1000));
    const error = new ServiceError(
      409,
      "settlement_in_progress",
      "This payment's settlement was sent and is being finished; retry with the same payment identifier after Retry-After seconds for the answer (or a credit code when the answer cannot be kept)",
      { retryAfterSeconds: seconds },
    );
    return {
      status: 409,
      body: toErrorBody(error),
      headers: { "retry-after": String(seconds), "cache-control": "no-store" },
    };
  }

  function usedUp(message: string, details: object = {}, retryAfterSeconds?: number): Outcome {
    return {
      status: 409,
      body: toErrorBody(new ServiceError(409, "payment_already_used", message, details)),
      headers: {
        "cache-control": "no-store",
        ...(retryAfterSeconds ? { "retry-after": String(retryAfterSeconds) } : {}),
      },
    };
  }

  /**
   * A payment already claimed. A settled payment is public on-chain, so its answer (or a pending one's credit
   * code) goes back only to a retry that repeats the payer's secret payment identifier for the same request.
   */
  async function retried(
    call: Call,
    price: Price | undefined,
    bound: Authorization,
    fingerprint: string,
    existing: ClaimRecord | undefined,
  ): Promise<Outcome> {
    const own =
      existing !== undefined &&
      bound.paymentId !== undefined &&
      existing.paymentId === bound.paymentId &&
      existing.fingerprint === fingerprint;
    if (own && existing.state === "settled")
      return { ...existing.outcome, headers: { ...existing.outcome.headers, "x-payment-replayed": "true" } };
    if (own && existing.state === "pending") {
      return refuse(
        call.endpoint,
        price,
        "settlement_pending",
        "Settlement is still being reconciled; if the transfer lands, its value is credited to creditCode",
        { creditCode: existing.creditCode },
      );
    }
    if (existing?.state === "running") {
      const r = await ledger.inFlight(bound);
      if (r) return inProgress(r);
      // No write-ahead record: the call has not settled. Past every deadline it has, its process is gone.
      const staleAt = existing.at + (call.endpoint.timeoutMs ?? handlerTimeoutMs) + resolveAfterMs;
      if (now() < staleAt)
        return usedUp(
          "This payment is already being used by a call in progress",
          {},
          Math.ceil((staleAt - now()) / 1000),
        );
      if (await ledger.abandon(bound, existing.fingerprint, existing.paymentId)) {
        log.warn(
          { endpoint: call.endpoint.name, payer: bound.payer },
          "a claimed call died before settling; its payment is given up uncharged",
        );
        return usedUp(
          "The call that took this payment ended before it was charged; nothing was charged: sign a new payment",
        );
      }
      const late = await ledger.inFlight(bound);
      if (late) return inProgress(late);
    }
    const message =
      existing?.state === "running"
        ? "This payment is already being used by a call in progress"
        : existing?.state === "spent"
          ? "This payment was used by a call that was not charged; sign a new payment"
          : "This payment was already used";
    return usedUp(message, {
      ...(own && existing.state === "credited" ? { creditCode: existing.creditCode } : {}),
      ...(existing?.state === "settled" ? { transaction: existing.transaction, network: bound.network } : {}),
      ...(existing?.state === "settled" && !own
        ? { retry: "Send a payment identifier with a payment to have its answer replayed on retry" }
        : {}),
    });
  }

  async function indeterminate(
    call: Call,
    bound: Authorization,
    fingerprint: string,
    price: Price | undefined,
    cause: unknown,
    /** What the settlement moves, in the token's units; `value` is what it is worth in USDC atomic units (the credit). */
    amount: string,
    value: string,
  ): Promise<Outcome> {
    const creditCode = await credits.issue(0n, `unsettled ${call.endpoint.name}`, bound.payer);
    const transaction = (cause as Partial<SettleResult>)?.transaction || undefined;
    await ledger.pending(bound, fingerprint, bound.paymentId, creditCode, transaction, amount, value);
    log.warn(
      {
        endpoint: call.endpoint.name,
        payer: bound.payer,
        cause: String((cause as Error)?.message ?? JSON.stringify(cause)),
      },
      "settlement indeterminate; queued for reconciliation",
    );
    return refuse(
      call.endpoint,
      price,
      "settlement_pending",
      "Settlement did not complete in time; if the transfer lands, its value is credited to creditCode (send it as X-CREDIT-CODE)",
      { creditCode },
    );
  }

  /** The gate's answer as it leaves, with what `parts.answers` adds to a 402 or a paid answer. */
  const leaving = (call: Call, price: Price | undefined, answer: MaybePromise<Outcome>): MaybePromise<Outcome> => {
    const answers = parts.answers;
    if (!answers) return answer;
    const added = (outcome: Outcome) =>
      outcome.status === 402
        ? answers.challenge(call, outcome)
        : outcome.status < 300 && outcome.charged !== undefined
          ? answers.paid(call, outcome, requirements(call.endpoint, price).amount)
          : outcome;
    return answer instanceof Promise ? answer.then(added) : added(answer);
  };

  const ways: PaymentWay[] = [];

  return {
    options: offers.options,
    requirements,
    discovery: offers.discovery,
    register: (way) => void ways.unshift(way),
    authorized: payWithAuthorization,
    channels: async (wallet) => (await Promise.all(ways.map((way) => way.channels?.(wallet) ?? []))).flat(),
    charge(call, work, price, commit) {
      // A call that carries no credentials (every 402) asks no way to pay.
      if (call.payment) {
        for (const way of ways) {
          const taken = way.take(call, price);
          if (!taken) continue;
          const seen = observe(call, taken.kind, work, commit);
          return leaving(call, price, seen.done(taken.pay(seen.work, seen.commit)));
        }
        const code = call.payment[creditHeader];
        if (code) {
          const seen = observe(call, creditKind, work, commit);
          return leaving(call, price, seen.done(payWithCredit(call, code, price, () => seen.work(), seen.commit)));
        }
      }
      return leaving(call, price, unpaid(call.endpoint, price));
    },
  };
}
