import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Store } from "../endpoint.ts";
import type { Credits } from "./credits.ts";
import type { FateReader, FateTable, Judge } from "./fate.ts";
import type { InFlight, Ledger, PendingSettlement } from "./ledger.ts";
import { finishMoved, finishUnmoved, fundOnce, holder } from "./in-flight.ts";

export interface ReconcilerParts {
  store: Store;
  ledger: Ledger;
  credits: Credits;
  /** The RPC of each network the pending records are on (CAIP-2 to URL). */
  rpcUrls?: Record<string, string>;
  /** The RPC of a network `rpcUrls` does not name (a one-network service). */
  rpcUrl?: string;
  /** What became of a recorded payment, read by its scheme (the rail's table). */
  fates: FateTable;
  log: Logger;
  intervalMs?: number;
  now?: () => number;
  /** The lock's lifetime unless renewed; the holder renews it every third of it. */
  lockTtlMs?: number;
  /** How long a write-ahead record waits for its own process before this one finishes it. */
  resolveAfterMs?: number;
}

type Tally = { credited: number; dropped: number; delivered: number };

const lockKey = "lock:x402:reconcile";
const recordsAtOnce = 16;

/**
 * Settlements whose outcome was unknown are checked against the token: a credit code is funded only for a
 * transfer seen on-chain (authorization-use.ts); an authorization cancelled or spent otherwise is dropped, one
 * that expired unused too. Each authorization funds at most once: a mark is claimed in the store before the
 * money is added, so overlapping passes (slow RPC, an expired lock, several instances) cannot add it twice.
 * One instance works at a time under a lock that names its owner, is renewed while held and released only by it.
 *
 * The same pass finishes the calls whose process died with their settlement in flight: each write-ahead record
 * older than `resolveAfterMs`, or whose authorization has expired, is judged against the chain, and a payment that moved gets its answer kept for the
 * payer's retry (its effects applied) or its price credited; one that can no longer move is spent, uncharged.
 */
export function createReconciler(parts: ReconcilerParts) {
  const { store, ledger, credits, log } = parts;
  const now = parts.now ?? Date.now;
  // Short, renewed while held: a process killed holding it stalls the other instances' passes this long at most.
  const lockTtlMs = parts.lockTtlMs ?? 15_000;
  const resolveAfterMs = parts.resolveAfterMs ?? 120_000;
  /**
   * How a network's records are judged: against its own chain, when its RPC is known, each by its scheme's reader
   * (every reader a pass needs is started before any record is judged).
   */
  const judgeOf = async (network: string, records: PendingSettlement[]): Promise<Judge | undefined> => {
    const url = parts.rpcUrls?.[network] ?? parts.rpcUrl;
    if (!url) return undefined;
    const readers = new Set(records.map(parts.fates).filter((r): r is FateReader => r !== undefined));
    const judges = new Map(await Promise.all([...readers].map(async (r) => [r, await r.pass(url)] as const)));
    return async (record) => {
      const judge = judges.get(parts.fates(record)!);
      if (!judge) throw new Error(`no fate reader for a payment of scheme ${record.scheme ?? "unnamed"}`);
      return judge(record);
    };
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<Tally> | undefined;
  let stopped = false;

  async function withLock(work: (held: () => boolean) => Promise<void>) {
    const owner = randomUUID();
    if (!(await store.claim(lockKey, owner, lockTtlMs))) return;
    let held = true;
    const renewal = setInterval(() => {
      store.renewIf(lockKey, owner, lockTtlMs).then(
        (still) => (held &&= still),
        (err) => log.warn({ err }, "reconciliation lock not renewed"),
      );
    }, lockTtlMs / 3);
    renewal.unref();
    try {
      await work(() => held);
    } finally {
      clearInterval(renewal);
      await store
        .deleteIf(lockKey, owner)
        .catch((err) => log.warn({ err }, "reconciliation lock not released; it expires"));
    }
  }

  async function reconcile(judge: Judge, record: PendingSettlement, tally: Tally) {
    const fate = await judge(record);
    const about = {
      payer: record.from,
      nonce: record.nonce,
      amount: record.amount,
      creditCode: record.creditCode.slice(0, 8),
    };
    if (fate.state === "moved") {
      const amount = BigInt(record.credit ?? record.amount);
      const origin = { payer: record.from, reason: "a payment that settled late" };
      if (await fundOnce(store, credits, log, record.claimKey, record.creditCode, amount, fate.transaction, origin)) {
        tally.credited++;
        log.info({ ...about, transaction: fate.transaction }, "unsettled payment moved on-chain: credited");
      }
      await ledger.resolvePending(record, true);
    } else if (fate.state === "not-moved") {
      await ledger.resolvePending(record, false);
      tally.dropped++;
      log.warn(
        { ...about, why: fate.why, transaction: fate.transaction },
        "unsettled payment: authorization spent without paying us; dropped, nothing credited",
      );
    } else if (fate.state === "expired") {
      await ledger.resolvePending(record, false);
      tally.dropped++;
      log.info(about, "unsettled payment: its blockhash expired and it never landed; dropped");
    } else if (fate.state === "unused") {
      if (BigInt(record.validBefore) * 1000n >= BigInt(now())) return;
      await ledger.resolvePending(record, false);
      tally.dropped++;
      log.info(about, "unsettled payment expired unused: dropped");
    } else {
      log.warn({ ...about, why: fate.why }, "unsettled payment: authorization spent, but its use not seen; kept");
    }
  }

  /** A call whose settlement was written ahead and never finished by its own process (see above). */
  async function resolve(judge: Judge, r: InFlight, tally: Tally) {
    const key = r.settlement.claimKey;
    const claim = await ledger.claimOf(key);
    // Its own process finished it (settled, refused, pending) and died before the record was removed.
    if (claim && claim.state !== "running") return ledger.forget(r);
    const about = { endpoint: r.endpoint, payer: r.payer, nonce: r.settlement.nonce, charged: r.charged };
    const mark = await ledger.resolution(key);
    let transaction: string;
    if (mark) {
      // The money moved and a finisher holds it: its own process, while it may still be alive, keeps it.
      if (mark.by !== "resolver" && now() - mark.at < resolveAfterMs) return;
      if (!(await ledger.takeOver(key, mark, holder("resolver", mark.transaction)))) return;
      transaction = mark.transaction ?? "";
    } else {
      const fate = await judge(r.settlement);
      if (fate.state === "unused" && BigInt(r.settlement.validBefore) * 1000n >= BigInt(now())) return;
      if (fate.state === "unseen") {
        log.warn({ ...about, why: fate.why }, "a payment in flight: authorization spent, but its use not seen; kept");
        return;
      }
      if (fate.state !== "moved") {
        await finishUnmoved(ledger, r);
        tally.dropped++;
        log.warn(
          { ...about, fate: fate.state },
          "a payment in flight whose process died never moved: spent, nothing charged",
        );
        return;
      }
      if (!(await ledger.takeResolution(key, holder("resolver", fate.transaction)))) return;
      transaction = fate.transaction;
    }
    const how = await finishMoved({ store, ledger, credits, log }, r, transaction);
    tally[how]++;
    log.warn(
      { ...about, transaction, how },
      how === "delivered"
        ? "a payment in flight whose process died was finished: its effects applied, its answer kept for the payer's retry"
        : "a payment in flight whose process died was finished: its price credited",
    );
  }

  async function pass(): Promise<Tally> {
    const tally = { credited: 0, dropped: 0, delivered: 0 };
    await withLock(async (held) => {
      const [pending, inFlight] = await Promise.all([ledger.pendingSettlements(), ledger.inFlights()]);
      // An authorization past its life cannot move any more: its fate is final, so it need not wait for its process.
      const stale = inFlight.filter(
        (r) => now() - r.at >= resolveAfterMs || BigInt(r.settlement.validBefore) * 1000n < BigInt(now()),
      );
      const work = [
        ...pending.map((r) => ({ network: r.network, run: (judge: Judge) => reconcile(judge, r, tally), about: r })),
        ...stale.map((r) => ({
          network: r.settlement.network,
          run: (judge: Judge) => resolve(judge, r, tally),
          about: r.settlement,
        })),
      ];
      // Each network against its own chain, from that chain's newest block.
      const byNetwork = new Map<string, typeof work>();
      for (const w of work) byNetwork.set(w.network, [...(byNetwork.get(w.network) ?? []), w]);
      for (const [network, some] of byNetwork) {
        const judge = await judgeOf(
          network,
          some.map((w) => w.about),
        );
        if (!judge) {
          log.warn(
            { network, pending: some.length },
            "unsettled payments on a network without an RPC URL: kept for an operator",
          );
          continue;
        }
        for (let i = 0; i < some.length && held() && !stopped; i += recordsAtOnce) {
          const batch = some.slice(i, i + recordsAtOnce);
          await Promise.all(
            batch.map((w) =>
              w
                .run(judge)
                .catch((err) =>
                  log.error({ err, payer: w.about.from, nonce: w.about.nonce }, "reconciliation of a payment failed"),
                ),
            ),
          );
        }
      }
    });
    return tally;
  }

  /** One pass; a pass already running in this process is joined, not overlapped. */
  const reconcileOnce = () => (running ??= pass().finally(() => (running = undefined)));

  return {
    reconcileOnce,
    /** Ticks every `intervalMs`, and once now: what a dead process left is finished at boot. */
    start() {
      stopped = false;
      reconcileOnce().catch((err) => log.error({ err }, "reconciliation failed"));
      timer = setInterval(() => {
        if (!running) reconcileOnce().catch((err) => log.error({ err }, "reconciliation failed"));
      }, parts.intervalMs ?? 30_000);
      timer.unref();
    },
    /** Stops the timer; a running pass ends after its current records. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
