import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  SIGN_IN_WITH_X,
  buildSIWxSchema,
  parseSIWxHeader,
  validateSIWxMessage,
  verifySIWxSignature,
  type EVMMessageVerifier,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import type { Store } from "../endpoint.ts";

/** How long a challenge's nonce may be signed and used: a sign-in is for one request, now. */
export const signInSeconds = 120;

export interface SignInParts {
  /** BASE_URL: a sign-in's `domain` and `uri` are checked against it, never against Host or X-Forwarded-*. */
  baseUrl: string;
  /** Where a used nonce is claimed, once across every instance. */
  store: Store;
  /** The networks (CAIP-2) a wallet may sign in on: the service's payment networks. */
  networks: readonly string[];
  /** Proves an EVM signature on its chain (EOA, ERC-1271, ERC-6492: viem's `verifyMessage`); EOA only without one. */
  evmVerifierOf: (chainId: string) => EVMMessageVerifier | undefined;
  /** Signs the nonces this service issues; the same on every instance. */
  secret: Uint8Array;
  now?: () => number;
}

export type SignedIn = { wallet: string } | { refused: string; message: string };

/**
 * Sign in with a wallet (`sign-in-with-x`, CAIP-122), the extension's own parser, validator and verifier, plus
 * what they leave to the server: the nonce is one this service issued (an HMAC over its expiry, so a 402 writes
 * nothing), not expired, and claimed in the store on use, so a signed message works once across instances; the
 * message is for this route; its chain is one we take payments on. The wallet is lower-cased on EVM, as a payer is.
 */
export function createSignIn(parts: SignInParts) {
  const origin = new URL(parts.baseUrl);
  const now = parts.now ?? Date.now;
  const mac = (body: string) => createHmac("sha256", parts.secret).update(body).digest("hex").slice(0, 32);
  const chains = parts.networks.map((chainId) => ({
    chainId,
    type: chainId.startsWith("solana:") ? ("ed25519" as const) : ("eip191" as const),
  }));

  /** A nonce: its expiry (seconds, hex), 16 random bytes and their MAC; letters and digits only, as SIWE wants. */
  function issueNonce(expiresAt: number): string {
    const body = `${expiresAt.toString(16)}${randomBytes(16).toString("hex")}`;
    return `${body}${mac(body)}`;
  }
  function nonceExpiry(nonce: string): number | undefined {
    if (!/^[0-9a-f]{72,}$/.test(nonce)) return undefined;
    const body = nonce.slice(0, -32);
    const given = Buffer.from(nonce.slice(-32));
    if (!timingSafeEqual(given, Buffer.from(mac(body)))) return undefined;
    return Number.parseInt(body.slice(0, -32), 16);
  }

  return {
    /** The `sign-in-with-x` extension of a 402 for `path`: a fresh nonce, issued now, for this origin and route. */
    challenge(path: string): SIWxExtension {
      const issued = now();
      const expiresAt = Math.floor(issued / 1000) + signInSeconds;
      const uri = new URL(path, origin).toString();
      return {
        info: {
          domain: origin.host,
          uri,
          statement: "Sign in to read your wallet's own data on this service",
          version: "1",
          nonce: issueNonce(expiresAt),
          issuedAt: new Date(issued).toISOString(),
          expirationTime: new Date(expiresAt * 1000).toISOString(),
          resources: [uri],
        },
        supportedChains: chains,
        schema: buildSIWxSchema(),
      };
    },

    /** The wallet a `SIGN-IN-WITH-X` header proves for `path`, or why it proves none. */
    async verify(header: string, path: string): Promise<SignedIn> {
      let payload: ReturnType<typeof parseSIWxHeader>;
      try {
        payload = parseSIWxHeader(header);
      } catch (e) {
        return { refused: "invalid_siwx_header", message: (e as Error).message };
      }
      const expiresAt = nonceExpiry(payload.nonce);
      const validated = await validateSIWxMessage(payload, origin, {
        maxAge: signInSeconds * 1000,
        checkNonce: () => expiresAt !== undefined && expiresAt * 1000 > now(),
      });
      if (!validated.isValid) return { refused: validated.invalidReason, message: validated.invalidMessage };
      if (!payload.expirationTime || Date.parse(payload.expirationTime) > (expiresAt ?? 0) * 1000)
        return { refused: "invalid_siwx_expiration_time", message: "The message must expire when its nonce does" };
      if (new URL(payload.uri).pathname !== path)
        return { refused: "invalid_siwx_uri_mismatch", message: `The message signs in to ${payload.uri}, not ${path}` };
      if (!chains.some((c) => c.chainId === payload.chainId))
        return {
          refused: "invalid_siwx_unsupported_chain",
          message: `This service takes no sign-in on ${payload.chainId}`,
        };
      const verified = await verifySIWxSignature(payload, { evmVerifier: parts.evmVerifierOf(payload.chainId) });
      if (!verified.isValid) return { refused: verified.invalidReason, message: verified.invalidMessage };
      const ttl = (expiresAt! + 60) * 1000 - now();
      if (!(await parts.store.claim(`siwx:nonce:${payload.nonce}`, 1, ttl)))
        return { refused: "invalid_siwx_nonce", message: "This sign-in was already used: sign a new challenge" };
      const wallet = payload.chainId.startsWith("eip155:") ? verified.payer.toLowerCase() : verified.payer;
      return { wallet };
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
export { SIGN_IN_WITH_X };
