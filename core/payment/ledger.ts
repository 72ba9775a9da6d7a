import type { Store } from "../endpoint.ts";
import type { Effect } from "../runtime/effects.ts";
import type { Outcome } from "../runtime/call.ts";
import { metrics } from "../runtime/prometheus.ts";
import type { LedgerPayment as BoundPayment } from "./payment.ts";
import { createReservations } from "./reservations.ts";

/**
 * What the ledger knows of one authorization (network, asset, from, nonce). `paymentId` is the payer's
 * `payment-identifier`: a secret that never goes on-chain, so only the payer can have a record's answer or
 * credit code handed back.
 */
interface ClaimBase {
  fingerprint: string;
  at: number;
  paymentId?: string;
}
export type ClaimRecord = ClaimBase &
  (
    | { state: "running" }
    | { state: "settled"; outcome: Outcome; transaction: string }
    /** The handler ran but nothing was charged (it failed, or its settlement was refused): spent for any other use. */
    | { state: "spent" }
    | { state: "pending"; creditCode: string }
    | { state: "credited"; creditCode: string }
  );

/** A settlement whose outcome was unknown when the call ended; reconciled against the chain later. */
export interface PendingSettlement {
  claimKey: string;
  /** The scheme that recorded it (its name in the rail's table), whose fate reader judges it; unnamed before schemes were. */
  scheme?: string;
  network: string;
  asset: string;
  from: string;
  nonce: string;
  amount: string;
  payTo: string;
  validBefore: string;
  creditCode: string;
  at: number;
  /** The settlement's transaction, when the facilitator named one before its outcome was lost. */
  transaction?: string;
  /** A Solana payment (`nonce` is its message hash): its blockhash bounds when it can land; its payer's signature finds it. */
  svm?: { blockhash: string; payerSignature: string };
  /** An upto payment: `nonce` is its Permit2 nonce (decimal), `amount` what the call used. */
  permit2?: true;
  /** What the code is funded with when the transfer lands: `amount` in USDC atomic units (credits count USDC's six decimals). */
  credit?: string;
}

/**
 * The write-ahead record of a payment whose settlement is about to be sent: what another process needs to finish
 * the call if this one dies (in-flight.ts). `answer` and `effects` are kept when the effects are data and both fit
 * in `maxKeptBytes`; without them, a payment that moved is finished with a credit for `charged`.
 */
export interface InFlight {
  state: "settling";
  at: number;
  fingerprint: string;
  paymentId?: string;
  endpoint: string;
  payer: string;
  /** The payment on its chain; `creditCode` is made now and funded only if the price has to be credited. */
  settlement: PendingSettlement;
  /** What the call is charged, in USDC atomic units: what a credit gives back. */
  charged: string;
  answer?: Outcome;
  effects?: Effect[];
  /** The payment-response header the answer goes out with, less the transaction (known once it lands). */
  receipt: { header: string; body: Record<string, unknown> };
}

/** Written instead of a write-ahead record by a retry that found the call gone before settling: no settlement follows. */
interface Abandoned {
  state: "abandoned";
  at: number;
}

/** Who is finishing a payment that moved: the call's own process, a resolver, a journal replay (in-flight.ts). */
export interface Holder {
  by: "live" | "resolver" | "journal";
  owner: string;
  at: number;
  transaction?: string;
}

/** The most of an answer and its effects a write-ahead record keeps (JSON characters). */
export const maxKeptBytes = 64 * 1024;
const keepAfterExpiryMs = 3600_000;
/** Longer than any payment can wait to be finished: the marks are what stop a second finishing or funding. */
export const markTtlMs = 30 * 24 * 3600_000;
const inFlightKey = (claimKey: string) => `x402:inflight:${claimKey}`;
const resolutionKey = (claimKey: string) => claimKey.replace(/^x402:claim:/, "x402:resolving:");

/**
 * One key per payment on its network: (network, asset, from, nonce) for EIP-3009. The network is our own
 * requirement's and the claim id is canonical (bind.ts), so one payment has one key however the client spells it.
 */
export const claimKeyOf = (p: BoundPayment) => `x402:claim:${p.network}:${p.claimId}`;

const statsKeys = {
  settled: "x402:stats:settled",
  settledAtomic: "x402:stats:settled-atomic",
  failed: "x402:stats:settle-failed",
  indeterminate: "x402:stats:indeterminate",
};

/** The payment ledger: one claim per authorization across every instance sharing the store. */
export function createLedger(store: Store, now: () => number = Date.now) {
  // An authorization's life is bounded (bind.ts), so every record expires an hour after it could still be used.
  const ttlFor = (p: BoundPayment) => Math.max(p.validUntil * 1000 - now(), 0) + keepAfterExpiryMs;
  const write = (p: BoundPayment, record: ClaimRecord) => store.set(claimKeyOf(p), record, ttlFor(p));
  const ttlOfRecord = (r: InFlight) => Math.max(Number(r.settlement.validBefore) * 1000 - now(), 0) + keepAfterExpiryMs;
  const settlementOf = (
    p: BoundPayment,
    creditCode: string,
    amount: string,
    credit?: string,
    transaction?: string,
  ): PendingSettlement => ({
    claimKey: claimKeyOf(p),
    scheme: p.scheme.name,
    network: p.network,
    asset: p.requirement.asset,
    from: p.payer,
    nonce: p.nonce,
    amount,
    payTo: p.requirement.payTo,
    validBefore: String(p.validUntil),
    creditCode,
    at: now(),
    transaction,
    ...p.recorded,
    ...(credit ? { credit } : {}),
  });
  async function countSettled(amount: string) {
    await Promise.all([store.increment(statsKeys.settled), store.increment(statsKeys.settledAtomic, Number(amount))]);
  }
  return {
    /** Holds a payment's amount against its payer's funds from admission to the end of its settlement (reservations.ts). */
    reserve: createReservations(store, now).reserve,
    /** Atomically takes the authorization for this call; returns the existing record when it was taken before. */
    async claim(
      p: BoundPayment,
      fingerprint: string,
      paymentId?: string,
    ): Promise<{ claimed: true } | { claimed: false; existing?: ClaimRecord }> {
      const record: ClaimRecord = { state: "running", fingerprint, at: now(), paymentId };
      if (await store.claim(claimKeyOf(p), record, ttlFor(p))) return { claimed: true };
      return { claimed: false, existing: await store.get<ClaimRecord>(claimKeyOf(p)) };
    },
    /** Nothing ran on this claim (the facilitator refused the payment): the authorization may be used again. */
    release: (p: BoundPayment) => store.delete(claimKeyOf(p)),
    /** The write-ahead record of a call about to settle `p` (not yet written: `writeAhead` writes it). */
    inFlightOf(
      p: BoundPayment,
      call: Omit<InFlight, "state" | "at" | "settlement" | "answer" | "effects"> & {
        creditCode: string;
        /** What the settlement moves, in the token's units. */
        amount: string;
        answer: Outcome;
        effects: Effect[] | undefined;
      },
    ): InFlight {
      const { creditCode, amount, answer, effects, ...rest } = call;
      const kept = effects && JSON.stringify({ answer, effects }).length <= maxKeptBytes ? { answer, effects } : {};
      const credit = rest.charged === amount ? undefined : rest.charged;
      return {
        ...rest,
        state: "settling",
        at: now(),
        settlement: settlementOf(p, creditCode, amount, credit),
        ...kept,
      };
    },
    /**
     * Written just before the settlement is sent, so that another process can finish the call. False when a retry
     * gave the claim up meanwhile (`abandon`): then nothing may be settled. A store that cannot take this write
     * cannot record the settlement either, so the call fails before any money moves.
     */
    writeAhead: (p: BoundPayment, record: InFlight) => store.claim(inFlightKey(claimKeyOf(p)), record, ttlFor(p)),
    /**
     * A retry found the call that took `p` gone before it wrote ahead: the claim is spent, nothing was charged, and
     * no settlement can follow (the write-ahead record's place is taken). False when the call did write ahead.
     */
    async abandon(p: BoundPayment, fingerprint: string, paymentId?: string) {
      const abandoned: Abandoned = { state: "abandoned", at: now() };
      if (!(await store.claim(inFlightKey(claimKeyOf(p)), abandoned, ttlFor(p)))) return false;
      await write(p, { state: "spent", fingerprint, at: now(), paymentId });
      return true;
    },
    inFlight: async (p: BoundPayment) => {
      const r = await store.get<InFlight | Abandoned>(inFlightKey(claimKeyOf(p)));
      return r?.state === "settling" ? r : undefined;
    },
    /** Every call whose settlement was sent and not yet finished, on any instance. */
    async inFlights(): Promise<InFlight[]> {
      const keys = await store.keys("x402:inflight:");
      const records = await Promise.all(keys.map((k) => store.get<InFlight | Abandoned>(k)));
      return records.filter((r): r is InFlight => r?.state === "settling");
    },
    claimOf: (claimKey: string) => store.get<ClaimRecord>(claimKey),
    /** Takes the finishing of a payment that moved: one holder applies its effects or funds its credit. */
    takeResolution: (claimKey: string, holder: Holder, ttlMs = markTtlMs) =>
      store.claim(resolutionKey(claimKey), holder, ttlMs),
    resolution: (claimKey: string) => store.get<Holder>(resolutionKey(claimKey)),
    /** Takes the finishing over from a holder that died (it still holds `stale`); only one taker wins. */
    takeOver: async (claimKey: string, stale: Holder, holder: Holder, ttlMs = markTtlMs) =>
      (await store.deleteIf(resolutionKey(claimKey), stale)) && store.claim(resolutionKey(claimKey), holder, ttlMs),
    /** A call finished by another process than its own: the claim's final state; the write-ahead record goes. */
    async finished(r: InFlight, final: ClaimRecord) {
      await store.set(r.settlement.claimKey, final, ttlOfRecord(r));
      if (final.state === "settled") await countSettled(r.settlement.amount);
      await store.delete(inFlightKey(r.settlement.claimKey));
    },
    /** A write-ahead record whose call ended by itself (settled, failed, pending): only the record goes. */
    forget: (r: InFlight) => store.delete(inFlightKey(r.settlement.claimKey)),
    /** The handler ran and nothing was charged: the authorization is never handed to another request. */
    spent: (p: BoundPayment, fingerprint: string, paymentId?: string) =>
      write(p, { state: "spent", fingerprint, at: now(), paymentId }),
    async settled(
      p: BoundPayment,
      fingerprint: string,
      paymentId: string | undefined,
      outcome: Outcome,
      transaction: string,
      /** What moved, when less than the authorization's amount (an upto permit settles what the call used). */
      amount = p.amount,
    ) {
      await write(p, { state: "settled", fingerprint, at: now(), paymentId, outcome, transaction });
      await Promise.all([countSettled(amount), store.delete(inFlightKey(claimKeyOf(p)))]);
    },
    /** The facilitator refused to settle: nothing moved. */
    async settleFailed(p: BoundPayment, fingerprint: string, paymentId?: string) {
      await write(p, { state: "spent", fingerprint, at: now(), paymentId });
      await Promise.all([store.increment(statsKeys.failed), store.delete(inFlightKey(claimKeyOf(p)))]);
    },
    async pending(
      p: BoundPayment,
      fingerprint: string,
      paymentId: string | undefined,
      creditCode: string,
      transaction?: string,
      amount = p.amount,
      credit?: string,
    ) {
      await write(p, { state: "pending", fingerprint, at: now(), paymentId, creditCode });
      await store.set(`x402:pending:${claimKeyOf(p)}`, settlementOf(p, creditCode, amount, credit, transaction));
      await Promise.all([store.increment(statsKeys.indeterminate), store.delete(inFlightKey(claimKeyOf(p)))]);
    },
    /** Counters over every instance since the store began (the service report). */
    async stats() {
      const [settled, settledAtomic, failed, indeterminate, pending] = await Promise.all([
        ...Object.values(statsKeys).map(async (k) => (await store.get<number>(k)) ?? 0),
        store.keys("x402:pending:").then((keys) => keys.length),
      ]);
      return { settled, settledAtomic, failed, indeterminate, pending };
    },
    pendingSettlements: async () => {
      const keys = await store.keys("x402:pending:");
      const records = await Promise.all(keys.map((k) => store.get<PendingSettlement>(k)));
      return records.filter((r): r is PendingSettlement => r !== undefined);
    },
    /** The chain answered: the money moved (the code was funded) or it never will. The claim stays spent either way. */
    async resolvePending(record: PendingSettlement, moved: boolean) {
      const claim = await store.get<ClaimRecord>(record.claimKey);
      const paymentId = claim?.paymentId;
      const fingerprint = claim?.fingerprint ?? "";
      const resolved: ClaimRecord = moved
        ? { state: "credited", fingerprint, at: now(), paymentId, creditCode: record.creditCode }
        : { state: "spent", fingerprint, at: now(), paymentId };
      await store.set(record.claimKey, resolved, keepAfterExpiryMs);
      await store.delete(`x402:pending:${record.claimKey}`);
      metrics.settlementsReconciled.inc({ network: record.network, result: moved ? "credited" : "dropped" });
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
