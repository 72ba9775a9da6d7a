import type { SchemeTerms } from "../../bound.ts";

/** `exact` with an EIP-3009 authorization (USDC and other tokens that implement it). */
export const exactEip3009Terms: SchemeTerms = {
  name: "exact-eip3009",
  payAsUsed: false,
  insufficientFunds: "invalid_exact_evm_insufficient_balance",
  invalidSignature: "invalid_exact_evm_signature",
  // A contract wallet's EIP-1271/6492 signature, proven against the chain before anything else reads the payment.
  provenBy: "chain",
  canonical: (address: string) => address.toLowerCase(),
};
