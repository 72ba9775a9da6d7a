import type { JWK } from "jose";
import { badRequest } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";

/** jose (about 130 modules), loaded on the first token rather than at boot. */
export const jose = lazy(() => import("jose"));

export interface Verification {
  method: "none" | "secret" | "key";
  algorithm: string | null;
  verified: boolean;
  error: string | null;
}

const hmac = ["HS256", "HS384", "HS512"];
const refuse = (field: string, message: string) => badRequest(`${field}: ${message}`, { issues: [{ field, message }] });

/**
 * Checks the signature only (claims such as exp are reported separately). The key material is given
 * inline: a secret for HS*, or a PEM public key, certificate, JWK or JWKS for the others. The key type is
 * bound to the algorithm family, so a public key can never be misused as an HMAC secret.
 */
export async function verifySignature(
  token: string,
  alg: string | undefined,
  secret?: string,
  key?: string,
): Promise<Verification> {
  const method = secret !== undefined ? "secret" : key !== undefined ? "key" : "none";
  const algorithm = alg ?? null;
  const outcome = (verified: boolean, error: string | null): Verification => ({ method, algorithm, verified, error });
  if (method === "none") return outcome(false, null);
  const { compactVerify, errors } = await jose();
  if (!alg || alg === "none") return outcome(false, "The token is unsigned (alg none)");
  if (secret !== undefined && !hmac.includes(alg))
    throw refuse("secret", `The token is signed with ${alg}; a secret only verifies ${hmac.join(", ")}`);
  if (key !== undefined && hmac.includes(alg))
    throw refuse("key", `The token is signed with ${alg}, which needs the shared secret, not a public key`);
  try {
    const options = { algorithms: [alg] };
    if (secret !== undefined) await compactVerify(token, new TextEncoder().encode(secret), options);
    else {
      const material = await importKey(key!, alg);
      if (typeof material === "function") await compactVerify(token, material, options);
      else await compactVerify(token, material, options);
    }
    return outcome(true, null);
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) return outcome(false, "The signature does not match");
    if (error instanceof errors.JWKSNoMatchingKey)
      return outcome(false, "No key in the JWKS matches the token's kid and alg");
    if (error instanceof errors.JOSEError) return outcome(false, error.message);
    throw error;
  }
}

async function importKey(key: string, alg: string) {
  const { createLocalJWKSet, importJWK, importSPKI, importX509 } = await jose();
  const text = key.trim();
  try {
    if (text.startsWith("-----BEGIN PUBLIC KEY-----")) return await importSPKI(text, alg);
    if (text.startsWith("-----BEGIN CERTIFICATE-----")) return await importX509(text, alg);
    if (text.startsWith("{")) {
      const jwk = JSON.parse(text) as JWK | { keys: JWK[] };
      if ("keys" in jwk && Array.isArray(jwk.keys)) return createLocalJWKSet(jwk as { keys: JWK[] });
      return await importJWK(jwk as JWK, alg);
    }
  } catch (error) {
    throw refuse("key", `The key does not import for ${alg}: ${(error as Error).message}`);
  }
  throw refuse("key", "Expected a PEM public key (BEGIN PUBLIC KEY), a PEM certificate, a JWK or a JWKS as JSON");
}
