import type { Store } from "../endpoint.ts";
import type { LedgerPayment as BoundPayment } from "./payment.ts";

/** What the payer can pay now (its token balance; for a Permit2 permit, within its allowance); undefined: unknown. */
export type FundsReader = () => Promise<bigint | undefined>;

export interface Reservation {
  /** Every amount reserved for the payer, this one included, when it was added. */
  total: bigint;
  /** Other payments of the payer were reserved: the facilitator's verify (this payment alone) does not prove the total. */
  shared: boolean;
  /**
   * Just before the settlement is sent: the payer's funds still cover what is reserved against them. Read again
   * only when a block may have passed since admission, since the payer's own transaction could have landed; one
   * sent at the same moment races ours whatever we read. A settlement of the payer that landed but has not yet
   * given its reservation back is waited for.
   */
  stillCovered(funds: FundsReader): Promise<boolean>;
  /** Gives the amount back; never throws (a reservation not given back expires with its key). */
  release(): Promise<void>;
}

/** Longer than any call and its settlement; the key is deleted whenever it drains to zero, so this bounds what a crash leaves. */
const reservedTtlMs = 10 * 60_000;
/** Shorter than a block on the chains we settle on but the fastest: within it, a read at admission is as good as a new one. */
export const freshMs = 1_000;
/** How long a settlement waits for the payer's other settlements to give their reservations back. */
const settleWaitMs = 5_000;
const pollMs = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The store adds in doubles: exact for the amounts of a 6-decimal token, rounded up otherwise. */
const atomic = (total: number) => BigInt(Math.ceil(total));

/**
 * Per payer (and network and token), the amounts of its payments from admission to the end of their settlement, on
 * every instance sharing the store. A payment is admitted only while the payer's funds, read after its amount was
 * added, cover the total (the facilitator's verify proves it when the payment is the payer's only one); its
 * settlement is sent while the reservation holds. So payments a wallet cannot all pay are refused before any work,
 * and none makes the relayer (or the Solana fee payer) send a transaction that must revert.
 */
export function createReservations(store: Store, now: () => number = Date.now) {
  const keyOf = (p: BoundPayment) => {
    const { canonical } = p.scheme;
    return `x402:reserved:${p.network}:${canonical(p.requirement.asset)}:${canonical(p.payer)}`;
  };

  return {
    /** Adds the payment's amount to what is reserved for its payer; the caller reads the funds after this. */
    async reserve(p: BoundPayment): Promise<Reservation> {
      const key = keyOf(p);
      const amount = Number(p.amount);
      const total = await store.increment(key, amount, reservedTtlMs);
      const at = now();
      let released = false;
      return {
        total: atomic(total),
        shared: total > amount,
        async stillCovered(funds) {
          if (now() - at < freshMs) return true;
          const deadline = now() + settleWaitMs;
          for (;;) {
            const [held, reserved] = await Promise.all([funds(), store.get<number>(key)]);
            if (held === undefined || held >= atomic(Math.max(reserved ?? 0, amount))) return true;
            if (held < BigInt(amount) || now() >= deadline) return false;
            while ((await store.get<number>(key)) === reserved && now() < deadline) await sleep(pollMs);
          }
        },
        async release() {
          if (released) return;
          released = true;
          try {
            if ((await store.take(key, amount)) === 0) await store.deleteIf(key, 0);
          } catch {
            // The amount stays reserved until the key expires: the payer's later calls are judged more strictly, never less.
          }
        },
      };
    },
  };
}
