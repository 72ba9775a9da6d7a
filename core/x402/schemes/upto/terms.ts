import type { SchemeTerms } from "../../bound.ts";

/** `upto` with a Permit2 permit: the call is charged what it used, up to the price. */
export const uptoTerms: SchemeTerms = {
  name: "upto",
  payAsUsed: true,
  insufficientFunds: "permit2_insufficient_balance",
  invalidSignature: "invalid_permit2_signature",
  provenBy: "facilitator",
  canonical: (address: string) => address.toLowerCase(),
};
