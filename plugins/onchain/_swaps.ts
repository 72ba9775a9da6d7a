import type { Upstream } from "../../core/endpoint.ts";
import { readInternalTransactions, readTokenTransfers, readTransactions } from "./_blockscout.ts";
import { viemChain, type ChainSlug } from "../_shared/chains.ts";
import { D, legsOf, type Leg } from "./_pnl.ts";

/** One thing that moved in a swap: a token (address) or the native coin (token null). */
export interface SwapLeg {
  token: string | null;
  symbol: string | null;
  amount: InstanceType<typeof D>;
}

export interface Swap {
  hash: string;
  time: Date;
  /** The contract the wallet called (router or aggregator), when the wallet sent the transaction. */
  router: string | null;
  method: string | null;
  sold: SwapLeg[];
  bought: SwapLeg[];
}

/** How much of the wallet's recent history a swap reader looks at. */
export const SWAP_WINDOW = { tokenTransfers: 100, transactions: 50, internal: 50 };

const legOf = (leg: Leg): SwapLeg => ({ token: leg.token, symbol: leg.symbol, amount: leg.amount });

/** Adds up legs of the same token within one transaction (a route can pay in several hops). */
function merge(legs: SwapLeg[]): SwapLeg[] {
  const byToken = new Map<string, SwapLeg>();
  for (const leg of legs) {
    const key = leg.token ?? "native";
    const seen = byToken.get(key);
    byToken.set(key, seen ? { ...seen, amount: seen.amount.plus(leg.amount) } : leg);
  }
  return [...byToken.values()];
}

/**
 * The wallet's recent swaps, newest first: transactions in which it both gave something up and received something else
 * (ERC-20 transfers, the native coin it sent with the transaction, and native coin contracts paid back to it).
 */
export async function readSwaps(api: Upstream, chain: ChainSlug, wallet: string): Promise<Swap[]> {
  const me = wallet.toLowerCase();
  const [transfers, transactions, internal] = await Promise.all([
    readTokenTransfers(api, wallet, SWAP_WINDOW.tokenTransfers),
    readTransactions(api, wallet, SWAP_WINDOW.transactions),
    readInternalTransactions(api, wallet, SWAP_WINDOW.internal),
  ]);
  const native = (await viemChain(chain)).nativeCurrency;
  const nativeLeg = (wei: string): SwapLeg => ({
    token: null,
    symbol: native.symbol,
    amount: new D(wei).div(new D(10).pow(native.decimals)),
  });
  const sent = new Map(
    transactions.filter((tx) => tx.from.hash.toLowerCase() === me && tx.status !== "error").map((tx) => [tx.hash, tx]),
  );
  const byHash = new Map<string, { time: Date; sold: SwapLeg[]; bought: SwapLeg[]; method: string | null }>();
  const entry = (hash: string, time: Date, method: string | null) => {
    const found = byHash.get(hash) ?? { time, sold: [], bought: [], method };
    byHash.set(hash, found);
    return found;
  };
  for (const leg of legsOf(transfers, wallet)) {
    const swap = entry(leg.hash, leg.time, transfers.find((t) => t.transaction_hash === leg.hash)?.method ?? null);
    (leg.direction === "out" ? swap.sold : swap.bought).push(legOf(leg));
  }
  for (const call of internal) {
    if (
      !call.success ||
      call.to?.hash.toLowerCase() !== me ||
      BigInt(call.value) === 0n ||
      !byHash.has(call.transaction_hash)
    )
      continue;
    byHash.get(call.transaction_hash)!.bought.push(nativeLeg(call.value));
  }
  for (const [hash, swap] of byHash) {
    const tx = sent.get(hash);
    if (tx && BigInt(tx.value) > 0n) swap.sold.push(nativeLeg(tx.value));
  }
  return [...byHash]
    .filter(([, swap]) => swap.sold.length && swap.bought.length)
    .map(([hash, swap]) => {
      const tx = sent.get(hash);
      return {
        hash,
        time: swap.time,
        router: tx?.to?.hash ?? null,
        method: tx?.method ?? swap.method,
        sold: merge(swap.sold),
        bought: merge(swap.bought),
      };
    })
    .sort((a, b) => b.time.getTime() - a.time.getTime());
}
