import type { SchemeTerms } from "../../bound.ts";

/** Solana `exact`: the payer's signed transaction, proven when it is bound. */
export const exactSvmTerms: SchemeTerms = {
  name: "exact-svm",
  payAsUsed: false,
  // x402's generic reason: @x402/svm has none of its own.
  insufficientFunds: "insufficient_funds",
  invalidSignature: "invalid_exact_svm_payload_signature_invalid",
  canonical: (address: string) => address,
};
