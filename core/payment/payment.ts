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
