import type { Logger } from "pino";
import { createPublicClient, http, parseAbi } from "viem";
import type { Store } from "../endpoint.ts";
import type { Credits } from "./credits.ts";
import type { Ledger } from "./ledger.ts";

const authorizationStateAbi = parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]);

export interface ReconcilerParts {
  store: Store;
  ledger: Ledger;
  credits: Credits;
  rpcUrl: string;
  log: Logger;
  intervalMs?: number;
  now?: () => number;
}

/**
 * Settlements whose outcome was unknown are checked against the token itself: if the authorization was
 * used, the money moved without an answer, so its pre-issued credit code is funded; if it expired unused,
 * nothing moved and the claim is dropped. One instance does it at a time, under a lock in the store.
 */
export function createReconciler(parts: ReconcilerParts) {
  const { store, ledger, credits, log } = parts;
  const now = parts.now ?? Date.now;
  const chain = createPublicClient({ transport: http(parts.rpcUrl) });
  let timer: NodeJS.Timeout | undefined;

  async function reconcileOnce(): Promise<{ credited: number; dropped: number }> {
    const result = { credited: 0, dropped: 0 };
    if (!(await store.claim("lock:x402:reconcile", true, 60_000))) return result;
    try {
      for (const record of await ledger.pendingSettlements()) {
        const used = await chain.readContract({
          address: record.asset as `0x${string}`,
          abi: authorizationStateAbi,
          functionName: "authorizationState",
          args: [record.from as `0x${string}`, record.nonce as `0x${string}`],
        });
        if (used) {
          await credits.fund(record.creditCode, BigInt(record.amount));
          await ledger.resolvePending(record, true);
          result.credited++;
          log.info({ payer: record.from, amount: record.amount, creditCode: record.creditCode.slice(0, 8) }, "unsettled payment moved on-chain: credited");
        } else if (BigInt(record.validBefore) * 1000n < BigInt(now())) {
          await ledger.resolvePending(record, false);
          result.dropped++;
        }
      }
    } finally {
      await store.delete("lock:x402:reconcile");
    }
    return result;
  }

  return {
    reconcileOnce,
    start() {
      timer = setInterval(() => reconcileOnce().catch((err) => log.error({ err }, "reconciliation failed")), parts.intervalMs ?? 30_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
