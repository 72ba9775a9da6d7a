import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Store } from "../endpoint.ts";
import { applyDescribed } from "../runtime/effects.ts";
import type { Outcome } from "../runtime/call.ts";
import { encodeHeader } from "../shared.ts";
import type { CreditOrigin, Credits } from "./credits.ts";
import { markTtlMs, type ClaimRecord, type Holder, type InFlight, type Ledger } from "./ledger.ts";

export const holder = (by: Holder["by"], transaction?: string): Holder => ({
  by,
  owner: randomUUID(),
  at: Date.now(),
  ...(transaction ? { transaction } : {}),
});

/**
 * Funds a payment's credit code at most once, whoever asks (a reconciler pass, a resolver, a journal replay): a
 * mark is claimed in the store before the money is added. When the funding itself fails the mark stays (funding
 * twice is the worse error) and an operator can fund the code by hand from the error line.
 */
export async function fundOnce(
  store: Store,
  credits: Credits,
  log: Logger,
  claimKey: string,
  creditCode: string,
  amount: bigint,
  transaction: string,
  origin?: CreditOrigin,
): Promise<boolean> {
  const mark = claimKey.replace(/^x402:claim:/, "x402:funded:");
  if (!(await store.claim(mark, { creditCode, transaction, at: Date.now() }, markTtlMs))) return false;
  try {
    await credits.fund(creditCode, amount, origin);
  } catch (err) {
    log.error({ err, creditCode, amount: String(amount), transaction }, "credit marked funded but not funded");
    throw err;
  }
  return true;
}

/** A paid call's credit is its payer's. */
export const creditOriginOf = (r: InFlight): CreditOrigin => ({ payer: r.payer, reason: `undelivered ${r.endpoint}` });

/** The answer of a paid call as it goes out: its payer, what it was charged, when, the payment-response header. */
export const paidAnswer = (result: Outcome, r: InFlight, transaction: string): Outcome => ({
  ...result,
  payer: r.payer,
  charged: r.charged,
  paidAt: Date.now(),
  headers: {
    ...result.headers,
    [r.receipt.header]: encodeHeader({ ...r.receipt.body, transaction }),
    "cache-control": "no-store",
  },
});

/** The answer a write-ahead record kept, as the call would have sent it once its settlement landed in `transaction`. */
export const answerOf = (r: InFlight, transaction: string): Outcome | undefined =>
  r.answer && paidAnswer(r.answer, r, transaction);

export interface FinishParts {
  store: Store;
  ledger: Ledger;
  credits: Credits;
  log: Logger;
}

/**
 * Finishes, in a process other than the call's own, a payment whose money moved in `transaction`; the caller holds
 * its resolution. When the record kept the answer and its effects as data, the effects are applied (idempotent:
 * the call's own process may have applied them before it died) and the answer waits for the payer's retry with its
 * payment identifier; otherwise the price is credited to the record's credit code, and its retry gets the code.
 */
export async function finishMoved(parts: FinishParts, r: InFlight, transaction: string) {
  const { store, ledger, credits, log } = parts;
  const base = { fingerprint: r.fingerprint, paymentId: r.paymentId, at: Date.now() };
  const answer = answerOf(r, transaction);
  if (answer && r.effects && (await applyDescribed(store, r.effects))) {
    await ledger.finished(r, { ...base, state: "settled", outcome: answer, transaction });
    return "delivered" as const;
  }
  const { claimKey, creditCode } = r.settlement;
  await fundOnce(store, credits, log, claimKey, creditCode, BigInt(r.charged), transaction, creditOriginOf(r));
  await ledger.finished(r, { ...base, state: "credited", creditCode } satisfies ClaimRecord);
  return "credited" as const;
}

/** Nothing moved and nothing can any more: the claim is spent, the payer is not charged. */
export async function finishUnmoved(ledger: Ledger, r: InFlight) {
  await ledger.finished(r, { state: "spent", fingerprint: r.fingerprint, paymentId: r.paymentId, at: Date.now() });
}
