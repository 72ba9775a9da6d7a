import type { Store } from "../endpoint.ts";
import type { BoundPayment } from "./bind.ts";

/** What the payer can pay now (its token balance; for a Permit2 permit, within its allowance); undefined: unknown. */
export type FundsReader = () => Promise<bigint | undefined>;

export interface Reservation {
  /**
   * Read just before the settlement is sent: the payer's funds still cover every payment reserved against them.
   * A settlement of the payer that landed but has not yet given its reservation back is waited for.
   */
  stillCovered(): Promise<boolean>;
  /** Gives the amount back; never throws (a reservation not given back expires with its key). */
  release(): Promise<void>;
}

/** Longer than any call and its settlement; the key is deleted whenever it drains to zero, so this bounds what a crash leaves. */
const reservedTtlMs = 10 * 60_000;
/** How long a settlement waits for the payer's other settlements to give their reservations back. */
const settleWaitMs = 5_000;
const pollMs = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The store adds in doubles: exact for the amounts of a 6-decimal token, rounded up otherwise. */
const atomic = (total: number) => BigInt(Math.ceil(total));

/**
 * Per payer (and network and token), the amounts of its payments between admission and the end of their settlement,
 * on every instance sharing the store. A payment is admitted only while the payer's funds, read after its amount
 * was added, cover the total; its settlement is sent only when they still do. So payments a wallet cannot all pay
 * are refused before any work, and none of them makes the relayer (or the Solana fee payer) send a transaction
 * that must revert.
 */
export function createReservations(store: Store) {
  const keyOf = (p: BoundPayment) => {
    // EVM addresses in one case; Solana's base58 only as it is.
    const canonical = (address: string) => (p.family === "svm" ? address : address.toLowerCase());
    return `x402:reserved:${p.network}:${canonical(p.requirement.asset)}:${canonical(p.payer)}`;
  };

  return {
    /** Reserves the payment's amount, or undefined (nothing reserved) when the payer's funds do not cover it beside the others. */
    async reserve(p: BoundPayment, funds: FundsReader): Promise<Reservation | undefined> {
      const key = keyOf(p);
      const amount = Number(p.amount);
      const total = await store.increment(key, amount, reservedTtlMs);
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        try {
          if ((await store.take(key, amount)) === 0) await store.deleteIf(key, 0);
        } catch {
          // The amount stays reserved until the key expires: the payer's later calls are judged more strictly, never less.
        }
      };
      // Read after adding: a settlement that gave its amount back before then is already out of the balance.
      const held = await funds();
      if (held !== undefined && held < atomic(total)) {
        await release();
        return undefined;
      }
      return {
        release,
        async stillCovered() {
          const deadline = Date.now() + settleWaitMs;
          for (;;) {
            const [now, reserved] = await Promise.all([funds(), store.get<number>(key)]);
            if (now === undefined || now >= atomic(Math.max(reserved ?? 0, amount))) return true;
            if (now < BigInt(amount) || Date.now() >= deadline) return false;
            while ((await store.get<number>(key)) === reserved && Date.now() < deadline) await sleep(pollMs);
          }
        },
      };
    },
  };
}
