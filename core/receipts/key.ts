import { createHash, createPrivateKey, createPublicKey, sign, type JsonWebKey, type KeyObject } from "node:crypto";
import type { JWSSigner } from "@x402/extensions/offer-receipt";

/**
 * The key that signs offers and receipts: Ed25519, published in `/.well-known/did.json` as `did:web` of BASE_URL.
 * EdDSA JWS rather than EIP-712, because a JWS payload may carry fields the extension's EIP-712 type lacks (the
 * route, the request's hash, the price, the body's hash), and the extension's own verifier checks them all.
 */
export interface ServiceKey {
  /** `did:web:<host>` of BASE_URL, the port percent-encoded. */
  did: string;
  /** `<did>#receipts-1`: the JWS header's `kid`. */
  kid: string;
  publicJwk: JsonWebKey;
  signer: JWSSigner;
}

/** A 32-byte Ed25519 seed as PKCS#8 DER (RFC 8410). */
const pkcs8Prefix = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * The devnet's key: derived from a public phrase, like anvil's well-known accounts, so that every devnet
 * instance (and a restarted one) signs with the same key. Never used outside the devnet.
 */
export const devnetSigningKey = `0x${createHash("sha256").update("x402-agent-services devnet receipts key").digest("hex")}`;

/** `did:web` of a URL's host (its port percent-encoded): the document is at `<origin>/.well-known/did.json`. */
export const didWebOf = (url: string) => `did:web:${encodeURIComponent(new URL(url).host)}`;

export function serviceKey(hexSeed: string, baseUrl: string): ServiceKey {
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([pkcs8Prefix, Buffer.from(hexSeed.slice(2), "hex")]),
    format: "der",
    type: "pkcs8",
  });
  const publicJwk = createPublicKey(privateKey).export({ format: "jwk" });
  const did = didWebOf(baseUrl);
  const kid = `${did}#receipts-1`;
  return {
    did,
    kid,
    publicJwk,
    signer: {
      kid,
      format: "jws",
      algorithm: "EdDSA",
      sign: async (input) => sign(null, input, privateKey).toString("base64url"),
    },
  };
}

/** The DID document that binds the key to the service's domain. */
export const didDocument = (key: ServiceKey) => ({
  "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
  id: key.did,
  verificationMethod: [{ id: key.kid, type: "JsonWebKey2020", controller: key.did, publicKeyJwk: key.publicJwk }],
  assertionMethod: [key.kid],
});
