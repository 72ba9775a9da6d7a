import { createHash } from "node:crypto";
import {
  getBase64Encoder,
  getTransactionDecoder,
  type Address,
  type Blockhash,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from "@solana/kit";
import type { PendingSettlement } from "../../../payment/ledger.ts";

/** What the chain says became of a Solana payment whose settlement outcome was unknown. */
export type SvmFate =
  | { state: "moved"; transaction: string }
  | { state: "not-moved"; why: "failed-on-chain"; transaction: string }
  /** Not seen, and its blockhash is still valid: it may still land. */
  | { state: "unused" }
  /** Not seen, and its blockhash has expired: it can never land. */
  | { state: "expired" };

// Transactions this long before the call was recorded cannot be its settlement (margin for the clocks).
const clockSlackSeconds = 600;

/**
 * A Solana transaction is atomic: once it is confirmed without error, its TransferChecked moved exactly the amount
 * to payTo (the binding checked that before the claim). It is ours when its message hashes to the record's; a
 * failed one moved nothing. Not found: whether it still can land is its blockhash's validity, asked before the
 * search, so nothing lands between the answer and the search.
 */
export async function svmFateOf(rpc: Rpc<SolanaRpcApi>, record: PendingSettlement): Promise<SvmFate> {
  const judge = async (signature: string): Promise<SvmFate | undefined> => {
    const found = await rpc
      .getTransaction(signature as Signature, {
        encoding: "base64",
        maxSupportedTransactionVersion: 0,
        commitment: "confirmed",
      })
      .send();
    if (!found) return undefined;
    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(found.transaction[0]));
    if (
      createHash("sha256")
        .update(tx.messageBytes as unknown as Uint8Array)
        .digest("hex") !== record.nonce
    )
      return undefined;
    return found.meta?.err
      ? { state: "not-moved", why: "failed-on-chain", transaction: signature }
      : { state: "moved", transaction: signature };
  };
  if (record.transaction) {
    const named = await judge(record.transaction);
    if (named) return named;
  }
  const stillValid = record.svm
    ? (await rpc.isBlockhashValid(record.svm.blockhash as Blockhash, { commitment: "processed" }).send()).value
    : false;
  // The payer signed the transaction, so it is among the payer's transactions, newest first.
  const since = Math.floor(record.at / 1000) - clockSlackSeconds;
  const recent = await rpc.getSignaturesForAddress(record.from as Address, { limit: 100 }).send();
  for (const entry of recent) {
    if (entry.blockTime !== null && Number(entry.blockTime) < since) break;
    const fate = await judge(entry.signature);
    if (fate) return fate;
  }
  return stillValid ? { state: "unused" } : { state: "expired" };
}
