import type { Store } from "../endpoint.ts";

/** An EVM address in one spelling (lower case); a Solana address as it is (base58 is case-sensitive). */
export const walletKey = (wallet: string) => (wallet.startsWith("0x") ? wallet.toLowerCase() : wallet);

/**
 * What the service gave a wallet (its credit codes, its voucher channels), listed for the wallet's signed-in reads
 * on any instance: a ring of `max` slots in the store, the newest entries kept. A counter numbers the entries;
 * each slot lives `ttlMs` from its write, as what it names does, and the counter as long as the newest slot.
 */
export function createWalletIndex(store: Store, name: string, o: { max: number; ttlMs: number }) {
  const counter = (wallet: string) => `wallet-index:${name}:${walletKey(wallet)}`;
  const slot = (wallet: string, n: number) => `${counter(wallet)}:${n % o.max}`;
  return {
    async add(wallet: string, entry: string) {
      const n = await store.increment(counter(wallet), 1, o.ttlMs);
      await store.set(slot(wallet, n - 1), entry, o.ttlMs);
      // Only the last writer's renewal holds: whoever numbered the newest entry keeps the counter alive after it.
      await store.renewIf(counter(wallet), n, o.ttlMs);
    },
    /** The wallet's entries, newest first, each once. */
    async list(wallet: string): Promise<string[]> {
      const n = (await store.get<number>(counter(wallet))) ?? 0;
      const numbers = Array.from({ length: Math.min(n, o.max) }, (_, i) => n - 1 - i);
      const entries = await Promise.all(numbers.map((i) => store.get<string>(slot(wallet, i))));
      return [...new Set(entries.filter((e) => e !== undefined))];
    },
  };
}
