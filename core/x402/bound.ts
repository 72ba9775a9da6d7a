import type { Authorization, SchemeTerms } from "../payment/payment.ts";
import type { RequirementsV1, RequirementsV2, UptoRequirement } from "./requirements.ts";

export type { SchemeTerms };

/** What every bound payment of the x402 rail carries, whatever its scheme. */
export interface BoundCommon extends Authorization {
  /** Its scheme's row of the table. */
  scheme: SchemeTerms;
  /** The payment's nonce in one spelling: bytes32 lower-case hex, a Permit2 nonce in decimal, a Solana message hash. */
  nonce: string;
  /** What its scheme's reconciliation reads beside the common record (the ledger's PendingSettlement). */
  recorded?: { svm?: { blockhash: string; payerSignature: string }; permit2?: true };
  version: 1 | 2;
  /** The server's own requirement this payment matched, in the payload's version. */
  requirement: RequirementsV1 | RequirementsV2 | UptoRequirement;
  /** CAIP-2, whatever the payload's version. */
  network: string;
  /** Who pays: an EVM address as signed, or a Solana address (base58). */
  payer: string;
  /**
   * What makes this payment unique on its network (the claim key), in one spelling whatever the client sent:
   * EVM addresses and hex lower-cased, numbers as numbers, Solana's base58 as it is (it is case-sensitive).
   */
  claimId: string;
  /** The atomic amount the payment moves, in the option's token. */
  amount: string;
  /** Unix seconds after which the payment can no longer land on-chain. */
  validUntil: number;
  /** False for a contract wallet's signature (ERC-1271/6492): the gate proves it on-chain before anything else. */
  signerProven: boolean;
  /** The payer's `payment-identifier` (v2 extension): the secret a retry repeats to get its stored answer. */
  paymentId?: string;
  /** What goes to the facilitator: the payload exactly as the client sent it. */
  payload: Record<string, unknown>;
}
