import type { RequirementsV1, RequirementsV2, UptoRequirement } from "./requirements.ts";

/**
 * A scheme's row in the rail's table: what the payment core asks of a payment's scheme, so that it never branches on
 * the scheme itself. Each scheme folder exports its own (core/x402/schemes/<scheme>/terms.ts).
 */
export interface SchemeTerms {
  /** Its name in the rail's table (its folder's): what its payments' records carry, so its fate reader finds them. */
  name: string;
  /** Only what the call reports using is charged, up to the price (`ctx.use`). */
  payAsUsed: boolean;
  /** The scheme's reason for a payer whose funds do not cover the payment beside its other payments in progress. */
  insufficientFunds: string;
  /** The scheme's reason for a signature that does not prove the payer. */
  invalidSignature: string;
  /** Who proves a contract wallet's signature that the binding could not check locally. */
  provenBy?: "chain" | "facilitator";
  /** An address in its one spelling: EVM hex in lower case, Solana's base58 as it is (it is case-sensitive). */
  canonical(address: string): string;
  /** What the payer can do about a refusal, when its scheme knows (a Permit2 token's approval not given yet). */
  remedy?(
    reason: string,
    payment: Pick<BoundCommon, "network" | "payer"> & { requirement: { asset: string } },
  ): { message: string; details: object } | undefined;
}

/** What every bound payment of the x402 rail carries, whatever its scheme. */
export interface BoundCommon {
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
