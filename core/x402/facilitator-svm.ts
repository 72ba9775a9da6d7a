import { x402Facilitator } from "@x402/core/facilitator";
import { registerExactSvmScheme } from "@x402/svm/exact/facilitator";
import { toFacilitatorSvmSigner, TransactionOnchainFailureError } from "@x402/svm";
import {
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getTransactionDecoder,
  isSolanaError,
  type KeyPairSigner,
  type Signature,
} from "@solana/kit";
import type { Facilitator } from "./facilitator.ts";

export interface LocalSvmFacilitatorOptions {
  rpcUrl: string;
  network: string;
  /** Signs every settlement as its fee payer. */
  feePayer: KeyPairSigner;
  /** How long a sent transaction is waited for before its outcome is called unknown (settlement_pending). */
  confirmationTimeoutMs?: number;
  pollMs?: number;
}

/** A Solana secret key as wallets export it: base58 of the 64 bytes (seed, then public key). */
export async function svmSignerOf(secretKey: string): Promise<KeyPairSigner> {
  const bytes = getBase58Encoder().encode(secretKey);
  if (bytes.length !== 64) throw new Error("a Solana secret key is 64 bytes, base58");
  return createKeyPairSignerFromBytes(bytes as Uint8Array);
}

/** Only a JSON-RPC error is the node's answer; anything else (a reset, a timeout) may hide a send that arrived. */
function answered(error: unknown) {
  const code = isSolanaError(error) ? (error.context as { __code?: unknown }).__code : undefined;
  return typeof code === "number" && code <= -32000 && code >= -32768;
}

/** A transaction's id: its first signature, the fee payer's. */
const idOf = (wire: string) => {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  return getBase58Decoder().decode(Object.values(tx.signatures)[0] as Uint8Array);
};

/**
 * @x402/core's facilitator with @x402/svm's exact scheme, as the package provides them, on a signer that keeps the
 * rail's rules: a send whose reply is lost may have landed, so it is waited for like any other (the package would
 * call it failed), and a transaction not confirmed in time is an unknown outcome (settlement_pending, with its id)
 * that reconciliation settles against the chain. A transaction that failed on-chain moved nothing.
 */
export function createLocalSvmFacilitator(o: LocalSvmFacilitatorOptions): Facilitator {
  const base = toFacilitatorSvmSigner(o.feePayer, { defaultRpcUrl: o.rpcUrl });
  const rpc = createSolanaRpc(o.rpcUrl);
  const timeoutMs = o.confirmationTimeoutMs ?? 60_000;
  const pollMs = o.pollMs ?? 250;
  const signer: typeof base = {
    ...base,
    async sendTransaction(transaction, network) {
      try {
        return await base.sendTransaction(transaction, network);
      } catch (error) {
        if (answered(error)) throw error;
        return idOf(transaction);
      }
    },
    async confirmTransaction(signature, network) {
      void network;
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const status = (
          await rpc
            .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
            .send()
            .catch(() => undefined)
        )?.value[0];
        if (status && (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized")) {
          if (status.err)
            throw new TransactionOnchainFailureError(
              `Transaction failed onchain: ${JSON.stringify(status.err, (_, v) => (typeof v === "bigint" ? String(v) : v))}`,
            );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      throw new Error(`no confirmation within ${timeoutMs} ms`);
    },
  };
  const facilitator = new x402Facilitator();
  registerExactSvmScheme(facilitator, { signer, networks: [o.network as `${string}:${string}`] });
  return {
    verify: (payload, requirements) => facilitator.verify(payload as never, requirements as never),
    settle: (payload, requirements) => facilitator.settle(payload as never, requirements as never),
  };
}
