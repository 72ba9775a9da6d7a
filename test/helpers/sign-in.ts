import assert from "node:assert/strict";
import type { KeyPairSigner } from "@solana/kit";
import {
  SIGN_IN_WITH_X,
  createSIWxPayload,
  encodeSIWxHeader,
  isEVMSigner,
  type SIWxExtension,
  type SIWxPayload,
  type SIWxSigner,
} from "@x402/extensions/sign-in-with-x";

/** An EVM account (or a contract wallet's signer) or a Solana key pair. */
export type SignInSigner = SIWxSigner | KeyPairSigner;

export interface SignedIn {
  payload: SIWxPayload;
  /** The SIGN-IN-WITH-X header's value. */
  header: string;
}

/** The `sign-in-with-x` challenge in a 402's PAYMENT-REQUIRED, which asks for nothing to pay beside it. */
export function challengeIn(res: Response): SIWxExtension {
  assert.equal(res.status, 402);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  assert.deepEqual(required.accepts, [], "nothing to pay: a sign-in only");
  return required.extensions[SIGN_IN_WITH_X];
}

/**
 * `challenge` signed by `signer` with the extension's own client helper, on `chainId`, by default the first chain
 * the challenge offers of the signer's kind (EIP-191 for an EVM signer, Ed25519 for a Solana one).
 */
export async function signChallenge(
  challenge: SIWxExtension,
  signer: SignInSigner,
  chainId?: string,
): Promise<SignedIn> {
  const type = isEVMSigner(signer as SIWxSigner) ? "eip191" : "ed25519";
  const chain = challenge.supportedChains.find((c) => (chainId ? c.chainId === chainId : c.type === type));
  assert.ok(chain, `the challenge offers no ${chainId ?? type} chain`);
  const payload = await createSIWxPayload(
    { ...challenge.info, chainId: chain.chainId, type: chain.type },
    signer as SIWxSigner,
    challenge.info.uri,
  );
  return { payload, header: encodeSIWxHeader(payload) };
}

/** A sign-in to `path`: its challenge read from the 402 that `get` (unsigned) answers, signed by `signer`. */
export async function signInTo(
  get: (path: string) => Promise<Response>,
  path: string,
  signer: SignInSigner,
  chainId?: string,
): Promise<SignedIn> {
  return signChallenge(challengeIn(await get(path)), signer, chainId);
}

/** The request headers that carry a sign-in. */
export const signInHeaders = (header: string) => ({ [SIGN_IN_WITH_X]: header });
