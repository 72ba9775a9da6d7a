/**
 * What the ledger and the reservations read of a payment bound to a route's requirements, whatever its rail and
 * scheme (x402's bound payments are these, core/x402/bound.ts).
 */
export interface LedgerPayment {
  /** Its scheme: its name (what its records carry for its fate reader) and an address's one spelling. */
  scheme: { name: string; canonical(address: string): string };
  /** CAIP-2. */
  network: string;
  /** What makes the payment unique on its network, in one spelling. */
  claimId: string;
  /** Its nonce in one spelling. */
  nonce: string;
  payer: string;
  /** The atomic amount it moves, in the option's token. */
  amount: string;
  /** Unix seconds after which it can no longer land. */
  validUntil: number;
  requirement: { asset: string; payTo: string };
  /** What its scheme's fate reader reads beside the common record. */
  recorded?: { svm?: { blockhash: string; payerSignature: string }; permit2?: true };
}

/**
 * A scheme's row in its rail's table: what the paid gate asks of a payment's scheme, so that it never branches on
 * the scheme itself. Each x402 scheme folder exports its own (core/x402/schemes/<scheme>/terms.ts).
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
    payment: Pick<Authorization, "network" | "payer"> & { requirement: { asset: string } },
  ): { message: string; details: object } | undefined;
}

/** A signed authorization to move a payment, bound to one of our routes' requirements by its rail: what the paid gate settles. */
export interface Authorization extends LedgerPayment {
  scheme: SchemeTerms;
  /** False for a contract wallet's signature (ERC-1271/6492): the gate proves it before anything else. */
  signerProven: boolean;
  /** The payer's payment identifier: the secret a retry repeats to get its stored answer. */
  paymentId?: string;
  /** What goes to the facilitator: the payload exactly as the client sent it, and our requirement it matched. */
  payload: Record<string, unknown>;
  requirement: { asset: string; payTo: string };
}

/** A payment refused before anything was claimed, with the reason the 402 names. */
export class PaymentRejected extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}
