import type { Logger } from "pino";
import type { Store } from "../../../endpoint.ts";
import type { Outcome } from "../../../runtime/call.ts";
import type { Credits } from "../../../payment/credits.ts";
import { finishMoved, finishUnmoved, holder } from "../../../payment/in-flight.ts";
import { maxKeptBytes, type ClaimRecord, type InFlight, type Ledger } from "../../../payment/ledger.ts";
import type { Effect } from "../../../runtime/effects.ts";

/** A voucher as its payload names it: its channel and the cumulative amount it lets the receiver claim. */
export interface VoucherRef {
  network: string;
  channelId: string;
  max: string;
}

/**
 * The write-ahead record of a voucher about to be committed on its channel. `before` is what the channel was
 * charged when the voucher was held: once the commit is recorded, the channel's charge is more than that.
 */
export type VoucherInFlight = InFlight & { voucher: VoucherRef & { before: string } };

/** A view of the channel store: what it was charged, and whether a hold for `max` is still pending on it. */
export interface ChannelJudge {
  /**
   * Atomically drops a pending hold for `max` (so the process that held it can never commit it) and says whether
   * the channel's charge passed `before`; undefined when the channel is unknown.
   */
  settle(channelId: string, max: string, before: bigint): Promise<boolean | undefined>;
}

/** One record per channel at a time: while a voucher's commit is unresolved, no other voucher commits on its channel. */
const inFlightKey = (v: Pick<VoucherRef, "network" | "channelId">) =>
  `x402:voucher-inflight:${v.network}:${v.channelId.toLowerCase()}`;
/** The voucher's own record once finished (its answer for a retry, or its credit), as the ledger keeps claims. */
export const voucherClaimKey = (v: VoucherRef) =>
  `x402:claim:${v.network}:voucher:${v.channelId.toLowerCase()}:${v.max}`;

/** A day: a voucher does not expire, but its answer is kept for a retry only so long. */
const keptSeconds = 24 * 3600;
/**
 * Who finishes a voucher is marked for twice as long as its write-ahead record can live, which is as long as a
 * resolver can find the record: a mark per voucher kept for the ledger's 30 days would fill the store.
 */
const voucherMarkTtlMs = 2 * keptSeconds * 1000;

export interface VoucherInFlightParts {
  store: Store;
  ledger: Ledger;
  credits: Credits;
  log: Logger;
  /** How long a record waits for its own process before another one finishes it. */
  resolveAfterMs?: number;
  now?: () => number;
}

/**
 * The voucher's write-ahead record (batch-gate.ts): written after the voucher is held and before its increment is
 * committed to the channel, with the answer already computed and the effects waiting for the charge. A process
 * that dies anywhere after it leaves the record; whoever finds it older than `resolveAfterMs` asks the channel
 * store: the increment was committed, then the effects are applied once and the answer kept for the payer's retry
 * (or the price credited); it was not, then the hold is dropped (the dead process can never commit it) and the
 * voucher is still good for the payer's retry. Nothing else commits on the channel meanwhile.
 */
export function createVoucherInFlight(parts: VoucherInFlightParts) {
  const { store, ledger, log } = parts;
  const now = parts.now ?? Date.now;
  const resolveAfterMs = parts.resolveAfterMs ?? 120_000;

  return {
    recordOf(
      ref: VoucherRef & { before: string },
      call: Omit<VoucherInFlight, "state" | "at" | "settlement" | "voucher" | "answer" | "effects"> & {
        asset: string;
        payTo: string;
        creditCode: string;
        answer: Outcome;
        effects: Effect[] | undefined;
      },
    ): VoucherInFlight {
      const { asset, payTo, creditCode, answer, effects, ...rest } = call;
      // Kept as the ledger keeps an exact payment's: only effects given as data, within the size bound, and only for
      // a payer who can ask for the answer again (its payment identifier). Without one, a crash after the commit
      // credits the price to a code listed to the payer: an answer kept for nobody would be a charge lost.
      const kept =
        rest.paymentId !== undefined && effects && JSON.stringify({ answer, effects }).length <= maxKeptBytes
          ? { answer, effects }
          : {};
      const at = now();
      const claimKey = voucherClaimKey(ref);
      return {
        ...rest,
        ...kept,
        state: "settling",
        at,
        voucher: ref,
        settlement: {
          claimKey,
          network: ref.network,
          asset,
          from: rest.payer,
          nonce: `${ref.channelId}:${ref.max}`,
          amount: rest.charged,
          payTo,
          validBefore: String(Math.floor(at / 1000) + keptSeconds),
          creditCode,
          at,
        },
      };
    },
    /** How long a payer's retry waits before a resolver may finish the record written at `since`. */
    retryAfterSeconds: (since: number) => Math.max(1, Math.ceil((since + resolveAfterMs - now()) / 1000)),
    /** False when another voucher's commit on the channel is unresolved (or this one's, retried). */
    writeAhead: (r: VoucherInFlight) => store.claim(inFlightKey(r.voucher), r, keptSeconds * 1000),
    /** The record unresolved on `ref`'s channel, if any. */
    onChannel: (ref: VoucherRef) => store.get<VoucherInFlight>(inFlightKey(ref)),
    /** The voucher's finished record: settled (its answer), credited, or spent. */
    finishedOf: (ref: VoucherRef) => store.get<ClaimRecord>(voucherClaimKey(ref)),
    /** The commit was refused: nothing was charged, the record goes. */
    forget: (r: VoucherInFlight) => store.deleteIf(inFlightKey(r.voucher), r),
    /** Takes the finishing of a committed voucher: its own process right after the commit, or a resolver. */
    take: (r: VoucherInFlight, transaction = "") =>
      ledger.takeResolution(r.settlement.claimKey, holder("live", transaction), voucherMarkTtlMs),
    /** Its own process finished the call: the answer kept for a retry with the payer's payment identifier, if any. */
    async settled(r: VoucherInFlight, outcome: Outcome) {
      if (r.paymentId === undefined) {
        await store.delete(inFlightKey(r.voucher));
        return;
      }
      const final: ClaimRecord = {
        state: "settled",
        fingerprint: r.fingerprint,
        paymentId: r.paymentId,
        at: now(),
        outcome,
        transaction: "",
      };
      await store.set(r.settlement.claimKey, final, keptSeconds * 1000);
      await store.delete(inFlightKey(r.voucher));
    },

    /** Finishes the records older than `resolveAfterMs` whose process died (at boot, then on every tick). */
    async resolveStale(judgeOf: (network: string) => ChannelJudge | undefined) {
      const keys = await store.keys("x402:voucher-inflight:");
      const records = await Promise.all(keys.map((k) => store.get<VoucherInFlight>(k)));
      const tally = { delivered: 0, credited: 0, dropped: 0 };
      for (const r of records) {
        if (!r || now() - r.at < resolveAfterMs) continue;
        const judge = judgeOf(r.voucher.network);
        if (!judge) continue;
        try {
          const how = await resolve(judge, r);
          if (how) tally[how]++;
        } catch (err) {
          log.error(
            { err, channelId: r.voucher.channelId, max: r.voucher.max },
            "a voucher in flight was not resolved",
          );
        }
      }
      return tally;
    },
  };

  async function resolve(judge: ChannelJudge, r: VoucherInFlight) {
    const key = r.settlement.claimKey;
    const about = { endpoint: r.endpoint, payer: r.payer, channelId: r.voucher.channelId, max: r.voucher.max };
    const done = await ledger.claimOf(key);
    if (done && done.state !== "running") {
      await store.deleteIf(inFlightKey(r.voucher), r);
      return undefined;
    }
    const mark = await ledger.resolution(key);
    if (mark) {
      // Its own process took it after the commit; while it may still be alive, it keeps it.
      if (mark.by !== "resolver" && now() - mark.at < resolveAfterMs) return undefined;
      if (!(await ledger.takeOver(key, mark, holder("resolver"), voucherMarkTtlMs))) return undefined;
    } else {
      const committed = await judge.settle(r.voucher.channelId, r.voucher.max, BigInt(r.voucher.before));
      if (committed === undefined) return undefined;
      if (!committed) {
        await finishUnmoved(ledger, r);
        await store.deleteIf(inFlightKey(r.voucher), r);
        log.warn(about, "a voucher in flight whose process died was never committed: nothing charged");
        return "dropped" as const;
      }
      if (!(await ledger.takeResolution(key, holder("resolver"), voucherMarkTtlMs))) return undefined;
    }
    const how = await finishMoved({ store, ledger, credits: parts.credits, log }, r, "");
    await store.deleteIf(inFlightKey(r.voucher), r);
    log.warn(
      { ...about, how },
      how === "delivered"
        ? "a voucher in flight whose process died was finished: its effects applied, its answer kept for the payer's retry"
        : "a voucher in flight whose process died was finished: its price credited",
    );
    return how;
  }
}

export type VoucherInFlights = ReturnType<typeof createVoucherInFlight>;
