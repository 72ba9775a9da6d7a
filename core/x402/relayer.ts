import type { Hash, Hex, PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

export interface RelayedCall {
  to: Hex;
  data: Hex;
  gas: bigint;
}

interface Waiting {
  signed: Promise<Hex>;
  resolve(hash: Hash): void;
  reject(error: unknown): void;
}

/**
 * Sends the relayer's transactions: nonces counted here, signatures made in parallel, and the signed
 * transactions handed to the node in nonce order, those ready together in one JSON-RPC batch. A burst that
 * reaches a node out of order can stay queued behind a nonce it already has (seen with anvil); in order, it
 * cannot. A send that fails makes the next one count from the node again, so no nonce is left unused.
 */
export function createRelayer(client: PublicClient, account: PrivateKeyAccount, chainId: number) {
  let next: Promise<number> | undefined;
  let fees: { at: number; value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> } | undefined;
  const waiting: Waiting[] = [];
  let flushing = false;

  const nonceFromNode = () => client.getTransactionCount({ address: account.address, blockTag: "pending" });
  // Fee estimates move per block; one estimate serves every settlement of the same second.
  const currentFees = () => {
    if (!fees || Date.now() - fees.at > 1000) fees = { at: Date.now(), value: client.estimateFeesPerGas() as Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> };
    return fees.value;
  };
  const recount = () => {
    next = undefined;
    fees = undefined;
  };

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      while (waiting.length) {
        const batch = waiting.splice(0);
        const raws = await Promise.allSettled(batch.map((w) => w.signed));
        // Requested in one tick, in nonce order: the transport sends them as one ordered batch.
        const sends = raws.map((raw) => (raw.status === "fulfilled" ? client.sendRawTransaction({ serializedTransaction: raw.value }) : Promise.reject(raw.reason)));
        const results = await Promise.allSettled(sends);
        results.forEach((result, i) => {
          if (result.status === "fulfilled") return batch[i].resolve(result.value);
          recount();
          batch[i].reject(result.reason);
        });
      }
    } finally {
      flushing = false;
    }
  }

  return {
    send(call: RelayedCall): Promise<Hash> {
      const nonce = (next ??= nonceFromNode()).then((n) => n);
      next = nonce.then((n) => n + 1);
      const signed = Promise.all([nonce, currentFees()]).then(([n, f]) => account.signTransaction({ type: "eip1559", chainId, nonce: n, ...call, ...f }));
      return new Promise<Hash>((resolve, reject) => {
        waiting.push({ signed, resolve, reject });
        void flush();
      });
    },
  };
}
