import {
  extractJWSHeader,
  extractJWSPayload,
  extractPublicKeyFromKid,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import type { JsonWebKey } from "node:crypto";
import { didWebOf } from "./key.ts";
import { sha256Hex, type Receipt } from "./receipt.ts";

/** What the holder of a receipt claims besides the body: each one given must be what the receipt signed. */
export interface Expected {
  route?: string;
  price?: string;
  resourceUrl?: string;
  payer?: string;
}

export type Verdict = { valid: true; receipt: Receipt } | { valid: false; reason: string; message: string };

type KeyOf = (
  kid: string,
  did: string,
) => Promise<JsonWebKey | CryptoKey | Awaited<ReturnType<typeof extractPublicKeyFromKid>>>;

const refused = (reason: string, message: string): Verdict => ({ valid: false, reason, message });

/**
 * A receipt (its JWS) checked against the body it is said to cover. The extension's `extract*` functions read a
 * receipt without checking it; this checks, in order: the signing key is the one published by the domain the
 * receipt names (`did:web` of its `resourceUrl`), the signature (the extension's own verifier), the body's SHA-256,
 * then every claim the holder makes (route, price, resource, payer).
 */
export async function verifyReceipt(jws: string, body: Uint8Array, expected: Expected, keyOf: KeyOf): Promise<Verdict> {
  let kid: string | undefined;
  let claimed: Partial<Receipt>;
  try {
    kid = extractJWSHeader(jws).kid;
    claimed = extractJWSPayload<Partial<Receipt>>(jws);
  } catch {
    return refused("malformed", "The receipt is not a JWS compact serialization");
  }
  if (typeof claimed.resourceUrl !== "string" || !URL.canParse(claimed.resourceUrl))
    return refused("malformed", "The receipt names no resource URL");
  const did = didWebOf(new URL(claimed.resourceUrl).origin);
  if (!kid?.startsWith(`${did}#`))
    return refused("wrong_key", `The receipt is signed by ${kid ?? "no key"}, not by a key of ${did}`);
  let receipt: Receipt;
  try {
    receipt = (await verifyReceiptSignatureJWS(
      { format: "jws", signature: jws },
      (await keyOf(kid, did)) as never,
    )) as Receipt;
  } catch (e) {
    return refused("bad_signature", `The signature does not verify against ${kid}'s key: ${(e as Error).message}`);
  }
  if (receipt.bodySha256 !== sha256Hex(body))
    return refused("body_mismatch", "The body is not the one the receipt covers (its SHA-256 differs)");
  for (const field of ["route", "price", "resourceUrl", "payer"] as const) {
    const want = expected[field];
    if (want !== undefined && String(receipt[field]).toLowerCase() !== want.toLowerCase())
      return refused(`${field}_mismatch`, `The receipt names ${field} ${receipt[field]}, not ${want}`);
  }
  return { valid: true, receipt };
}

/** The key a domain publishes, read from its `/.well-known/did.json` (the extension's did:web resolver). */
export const publishedKey: KeyOf = (kid) => extractPublicKeyFromKid(kid);
