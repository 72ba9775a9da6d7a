import { x402Facilitator } from "@x402/core/facilitator";
import { ExactSvmScheme } from "@x402/svm/exact/facilitator";
import { ExactSvmSchemeV1 } from "@x402/svm/exact/v1/facilitator";
import { NETWORKS } from "@x402/svm/v1";
import { SettlementCache, toFacilitatorSvmSigner, TransactionOnchainFailureError } from "@x402/svm";
import {
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isSolanaError,
  type Address,
  type KeyPairSigner,
  type Signature,
} from "@solana/kit";
import { svmFeeLimits } from "./bind.ts";
import type { Facilitator } from "../../facilitator-api.ts";

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

const decode = (wire: string) => getTransactionDecoder().decode(getBase64Encoder().encode(wire));

/** A transaction's id: its first signature, the fee payer's. */
const idOf = (wire: string) => getBase58Decoder().decode(Object.values(decode(wire).signatures)[0] as Uint8Array);

/** The token account a payment's TransferChecked (its third instruction, bind-svm.ts) moves the money from. */
function sourceOf(wire: string): Address {
  const message = getCompiledTransactionMessageDecoder().decode(decode(wire).messageBytes);
  return message.staticAccounts[message.instructions[2].accountIndices![0]];
}

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
  // As registerExactSvmScheme registers them, with the fee payer's limits the binding already holds payments to.
  const settlements = new SettlementCache();
  const facilitator = new x402Facilitator()
    .register(
      [o.network as `${string}:${string}`],
      new ExactSvmScheme(signer, settlements, {
        maxRequiredSignatures: svmFeeLimits.signatures,
        maxComputeUnits: svmFeeLimits.computeUnits,
        maxPriorityFeeMicroLamports: Number(svmFeeLimits.microLamportsPerUnit),
      }),
    )
    .registerV1(NETWORKS as never, new ExactSvmSchemeV1(signer, settlements));
  return {
    verify: (payload, requirements) => facilitator.verify(payload as never, requirements as never),
    settle: (payload, requirements) => facilitator.settle(payload as never, requirements as never),
    // The fee payer pays for a transfer that fails on-chain too: the gate reserves against the payer's token account.
    async funds(payload) {
      const wire = (payload as { payload?: { transaction?: string } }).payload?.transaction;
      if (!wire) return undefined;
      const { value } = await rpc.getTokenAccountBalance(sourceOf(wire)).send();
      return BigInt(value.amount);
    },
  };
}
