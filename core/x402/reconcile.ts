import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { createPublicClient, http, type PublicClient } from "viem";
import type { Store } from "../endpoint.ts";
import type { Rpc, SolanaRpcApi } from "@solana/kit";
import { defaultLogWindow, fateOf, type AuthorizationFate, type LogWindow } from "./authorization-use.ts";
import { familyOf } from "./requirements.ts";
import { permit2FateOf } from "./permit2-fate.ts";
import type { SvmFate } from "./svm-fate.ts";
import type { Credits } from "./credits.ts";
import type { Ledger, PendingSettlement } from "./ledger.ts";

export interface ReconcilerParts {
  store: Store;
  ledger: Ledger;
  credits: Credits;
  /** The RPC of each network the pending records are on (CAIP-2 to URL). */
  rpcUrls?: Record<string, string>;
  /** The RPC of a network `rpcUrls` does not name (a one-network service). */
  rpcUrl?: string;
  log: Logger;
  intervalMs?: number;
  now?: () => number;
  /** The lock's lifetime unless renewed; the holder renews it every third of it. */
  lockTtlMs?: number;
  logWindow?: Partial<LogWindow>;
}

type Tally = { credited: number; dropped: number };

const lockKey = "lock:x402:reconcile";
/** Longer than any pending record can wait: the mark is what stops a second funding. */
const fundedMarkTtlMs = 30 * 24 * 3600_000;
const recordsAtOnce = 16;

/**
 * Settlements whose outcome was unknown are checked against the token: a credit code is funded only for a
 * transfer seen on-chain (authorization-use.ts); an authorization cancelled or spent otherwise is dropped, one
 * that expired unused too. Each authorization funds at most once: a mark is claimed in the store before the
 * money is added, so overlapping passes (slow RPC, an expired lock, several instances) cannot add it twice.
 * One instance works at a time under a lock that names its owner, is renewed while held and released only by it.
 */
export function createReconciler(parts: ReconcilerParts) {
  const { store, ledger, credits, log } = parts;
  const now = parts.now ?? Date.now;
  const lockTtlMs = parts.lockTtlMs ?? 60_000;
  const window = { ...defaultLogWindow, ...parts.logWindow };
  const chains = new Map<string, PublicClient>();
  const svmRpcs = new Map<string, Rpc<SolanaRpcApi>>();
  /** How a network's pending records are judged: against its own chain, when its RPC is known. */
  const judgeOf = async (
    network: string,
  ): Promise<((record: PendingSettlement) => Promise<AuthorizationFate | SvmFate>) | undefined> => {
    const url = parts.rpcUrls?.[network] ?? parts.rpcUrl;
    if (!url) return undefined;
    if (familyOf(network) === "svm") {
      const [{ createSolanaRpc }, { svmFateOf }] = await Promise.all([import("@solana/kit"), import("./svm-fate.ts")]);
      let rpc = svmRpcs.get(url);
      if (!rpc) svmRpcs.set(url, (rpc = createSolanaRpc(url)));
      return (record) => svmFateOf(rpc, record);
    }
    let chain = chains.get(url);
    if (!chain)
      chains.set(url, (chain = createPublicClient({ transport: http(url, { batch: true }) }) as PublicClient));
    const latest = await chain.getBlockNumber({ cacheTime: 0 });
    return (record) =>
      record.permit2 ? permit2FateOf(chain, record, latest, window) : fateOf(chain, record, latest, window);
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

  async function fundOnce(record: PendingSettlement, transaction: string): Promise<boolean> {
    const mark = record.claimKey.replace(/^x402:claim:/, "x402:funded:");
    if (!(await store.claim(mark, { creditCode: record.creditCode, transaction, at: now() }, fundedMarkTtlMs)))
      return false;
    try {
      await credits.fund(record.creditCode, BigInt(record.credit ?? record.amount));
    } catch (err) {
      // The mark stays: funding twice is the worse error. An operator can fund this code by hand.
      log.error(
        { err, creditCode: record.creditCode, amount: record.amount, transaction },
        "credit marked funded but not funded",
      );
      throw err;
    }
    return true;
  }

  async function reconcile(
    judge: (record: PendingSettlement) => Promise<AuthorizationFate | SvmFate>,
    record: PendingSettlement,
    tally: Tally,
  ) {
    const fate = await judge(record);
    const about = {
      payer: record.from,
      nonce: record.nonce,
      amount: record.amount,
      creditCode: record.creditCode.slice(0, 8),
    };
    if (fate.state === "moved") {
      if (await fundOnce(record, fate.transaction)) {
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
      log.warn(
        { ...about, why: fate.why, maxBlocks: String(window.maxBlocks) },
        "unsettled payment: authorization spent, but its use not seen; kept",
      );
    }
  }

  async function pass(): Promise<Tally> {
    const tally = { credited: 0, dropped: 0 };
    await withLock(async (held) => {
      const records = await ledger.pendingSettlements();
      // Each network against its own chain, from that chain's newest block.
      const byNetwork = new Map<string, PendingSettlement[]>();
      for (const r of records) byNetwork.set(r.network, [...(byNetwork.get(r.network) ?? []), r]);
      for (const [network, some] of byNetwork) {
        const judge = await judgeOf(network);
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
            batch.map((r) =>
              reconcile(judge, r, tally).catch((err) =>
                log.error({ err, payer: r.from, nonce: r.nonce }, "reconciliation of a payment failed"),
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
    start() {
      stopped = false;
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
