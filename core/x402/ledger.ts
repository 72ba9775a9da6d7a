import type { Store } from "../endpoint.ts";
import type { Outcome } from "../runtime/invoke.ts";
import { metrics } from "../runtime/prometheus.ts";
import type { BoundPayment } from "./bind.ts";
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

const keepAfterExpiryMs = 3600_000;

/**
 * One key per payment on its network: (network, asset, from, nonce) for EIP-3009. The network is our own
 * requirement's and the claim id is canonical (bind.ts), so one payment has one key however the client spells it.
 */
export const claimKeyOf = (p: BoundPayment) => `x402:claim:${p.network}:${p.claimId}`;

/** The payment's nonce in one spelling: bytes32 lower-case hex, a Permit2 nonce in decimal, a Solana message hash. */
const nonceOf = (p: BoundPayment) =>
  p.family === "evm"
    ? p.authorization.nonce.toLowerCase()
    : p.family === "upto"
      ? String(BigInt(p.permit2Authorization.nonce))
      : p.messageHash;

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
    /**
     * Re-writes the claim just before settling: a store that cannot take this write cannot record the
     * settlement either, so the call fails (503) before any money moves.
     */
    settling: (p: BoundPayment, fingerprint: string, paymentId?: string) =>
      write(p, { state: "running", fingerprint, at: now(), paymentId }),
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
      await Promise.all([store.increment(statsKeys.settled), store.increment(statsKeys.settledAtomic, Number(amount))]);
    },
    /** The facilitator refused to settle: nothing moved. */
    async settleFailed(p: BoundPayment, fingerprint: string, paymentId?: string) {
      await write(p, { state: "spent", fingerprint, at: now(), paymentId });
      await store.increment(statsKeys.failed);
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
      const record: PendingSettlement = {
        claimKey: claimKeyOf(p),
        network: p.network,
        asset: p.requirement.asset,
        from: p.payer,
        nonce: nonceOf(p),
        amount,
        payTo: p.requirement.payTo,
        validBefore: String(p.validUntil),
        creditCode,
        at: now(),
        transaction,
        ...(p.family === "svm" ? { svm: { blockhash: p.blockhash, payerSignature: p.payerSignature } } : {}),
        ...(p.family === "upto" ? { permit2: true } : {}),
        ...(credit ? { credit } : {}),
      };
      await store.set(`x402:pending:${claimKeyOf(p)}`, record);
      await store.increment(statsKeys.indeterminate);
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
