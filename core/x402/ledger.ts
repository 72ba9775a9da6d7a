import type { Store } from "../endpoint.ts";
import type { Outcome } from "../runtime/invoke.ts";
import type { BoundPayment } from "./bind.ts";

/** What the ledger knows of one authorization (network, asset, from, nonce). */
export type ClaimRecord =
  | { state: "running"; fingerprint: string; at: number }
  | { state: "settled"; fingerprint: string; at: number; outcome: Outcome; transaction: string }
  | { state: "pending"; fingerprint: string; at: number; creditCode: string }
  | { state: "credited"; fingerprint: string; at: number; creditCode: string };

/** A settlement whose outcome was unknown when the call ended; reconciled against the chain later. */
export interface PendingSettlement {
  claimKey: string;
  network: string;
  asset: string;
  from: string;
  nonce: string;
  amount: string;
  validBefore: string;
  creditCode: string;
  at: number;
}

const keepAfterExpiryMs = 3600_000;

export function claimKeyOf(p: BoundPayment) {
  const a = p.authorization;
  return `x402:claim:${p.network}:${p.requirement.asset.toLowerCase()}:${a.from.toLowerCase()}:${a.nonce.toLowerCase()}`;
}

/** The payment ledger: one claim per authorization across every instance sharing the store. */
const statsKeys = {
  settled: "x402:stats:settled",
  settledAtomic: "x402:stats:settled-atomic",
  failed: "x402:stats:settle-failed",
  indeterminate: "x402:stats:indeterminate",
};

export function createLedger(store: Store, now: () => number = Date.now) {
  const ttlFor = (p: BoundPayment) => Math.max(Number(p.authorization.validBefore) * 1000 - now(), 0) + keepAfterExpiryMs;
  return {
    /** Atomically takes the authorization for this call; returns the existing record when it was taken before. */
    async claim(p: BoundPayment, fingerprint: string): Promise<{ claimed: true } | { claimed: false; existing?: ClaimRecord }> {
      const record: ClaimRecord = { state: "running", fingerprint, at: now() };
      if (await store.claim(claimKeyOf(p), record, ttlFor(p))) return { claimed: true };
      return { claimed: false, existing: await store.get<ClaimRecord>(claimKeyOf(p)) };
    },
    /**
     * Re-writes the claim just before settling: a store that cannot take this write cannot record the
     * settlement either, so the call fails (503) before any money moves.
     */
    settling: (p: BoundPayment, fingerprint: string) => store.set(claimKeyOf(p), { state: "running", fingerprint, at: now() } satisfies ClaimRecord, ttlFor(p)),
    /** The call failed before settlement: the authorization may be used again. */
    release: (p: BoundPayment) => store.delete(claimKeyOf(p)),
    async settled(p: BoundPayment, fingerprint: string, outcome: Outcome, transaction: string) {
      await store.set(claimKeyOf(p), { state: "settled", fingerprint, at: now(), outcome, transaction } satisfies ClaimRecord, ttlFor(p));
      await Promise.all([store.increment(statsKeys.settled), store.increment(statsKeys.settledAtomic, Number(p.authorization.value))]);
    },
    /** The facilitator refused to settle: nothing moved, the authorization may be used again. */
    async settleFailed(p: BoundPayment) {
      await store.delete(claimKeyOf(p));
      await store.increment(statsKeys.failed);
    },
    async pending(p: BoundPayment, fingerprint: string, creditCode: string) {
      const a = p.authorization;
      await store.set(claimKeyOf(p), { state: "pending", fingerprint, at: now(), creditCode } satisfies ClaimRecord, ttlFor(p));
      const record: PendingSettlement = {
        claimKey: claimKeyOf(p), network: p.network, asset: p.requirement.asset, from: a.from, nonce: a.nonce,
        amount: a.value, validBefore: a.validBefore, creditCode, at: now(),
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
    async resolvePending(record: PendingSettlement, moved: boolean) {
      await store.delete(`x402:pending:${record.claimKey}`);
      if (moved) {
        await store.set(record.claimKey, { state: "credited", fingerprint: "", at: now(), creditCode: record.creditCode } satisfies ClaimRecord, keepAfterExpiryMs);
      } else {
        await store.delete(record.claimKey);
      }
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
