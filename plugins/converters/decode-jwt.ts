import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { jose, verifySignature } from "./_jwt-verify.ts";

const NumericDate = v.pipe(
  v.nullable(v.string()),
  v.description("The claim as an ISO 8601 UTC time; null when absent or not a number"),
);

export default defineEndpoint({
  name: "decode-jwt",
  method: "GET",
  price: "$0.005",
  summary: "Decode a JWT's header and claims, report expiry, and optionally verify its signature with a key you give",
  description:
    "Decoding does not verify: `verified` is true only when a `secret` (HS256/384/512) or a public `key` " +
    "(PEM SPKI, PEM certificate, JWK or JWKS as JSON) was given and the signature matches. Keys are never fetched. " +
    "Encrypted tokens (JWE) are not supported.",
  input: v.object({
    token: v.pipe(
      v.string(),
      v.maxLength(16_000),
      v.regex(
        /^(Bearer\s+)?[\w-]+\.[\w-]+\.[\w-]*$/,
        "Expected a compact JWT: three base64url parts separated by dots",
      ),
      v.description("The JWT, optionally prefixed with 'Bearer '"),
    ),
    secret: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(4096),
        v.description("Shared secret to verify an HS256/HS384/HS512 signature (UTF-8)"),
      ),
    ),
    key: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(20_000),
        v.description("Public key to verify RS*/PS*/ES*/EdDSA: PEM, certificate, JWK or JWKS JSON"),
      ),
    ),
  }),
  output: v.object({
    header: v.record(v.string(), v.unknown()),
    payload: v.record(v.string(), v.unknown()),
    issuedAt: NumericDate,
    expiresAt: NumericDate,
    notBefore: NumericDate,
    expired: v.pipe(v.boolean(), v.description("exp is set and has passed")),
    notYetValid: v.pipe(v.boolean(), v.description("nbf is set and has not come yet")),
    verified: v.pipe(v.boolean(), v.description("The signature was checked against the given key and matches")),
    verification: v.object({
      method: v.picklist(["none", "secret", "key"]),
      algorithm: v.nullable(v.string()),
      error: v.nullable(v.string()),
    }),
  }),
  example: {
    input: {
      token:
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwibmFtZSI6IkFkYSIsImlhdCI6MTUxNjIzOTAyMiwiZXhwIjoxNTE2MjQyNjIyfQ.uPOIq3haGjr6G-FLhzWraQSP-KugQKVQWu0PqxSjNvM",
      secret: "example-secret",
    },
    output: {
      header: { alg: "HS256", typ: "JWT" },
      payload: { sub: "user-42", name: "Ada", iat: 1516239022, exp: 1516242622 },
      issuedAt: "2018-01-18T01:30:22.000Z",
      expiresAt: "2018-01-18T02:30:22.000Z",
      notBefore: null,
      expired: true,
      notYetValid: false,
      verified: true,
      verification: { method: "secret", algorithm: "HS256", error: null },
    },
  },
  async handler({ input, now }) {
    if (input.secret !== undefined && input.key !== undefined) {
      throw fieldError("key", "Give either secret or key, not both");
    }
    const token = input.token.replace(/^Bearer\s+/, "");
    const { header, payload } = decode(await jose(), token);
    const at = now().getTime();
    const { verified, ...verification } = await verifySignature(token, header.alg, input.secret, input.key);
    return {
      header,
      payload,
      issuedAt: toIso(payload.iat),
      expiresAt: toIso(payload.exp),
      notBefore: toIso(payload.nbf),
      expired: typeof payload.exp === "number" && at >= payload.exp * 1000,
      notYetValid: typeof payload.nbf === "number" && at < payload.nbf * 1000,
      verified,
      verification,
    };
  },
});

function decode({ decodeJwt, decodeProtectedHeader }: Awaited<ReturnType<typeof jose>>, token: string) {
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token) };
  } catch (error) {
    const message = `The token does not decode: ${(error as Error).message}`;
    throw fieldError("token", message);
  }
}

function toIso(seconds: unknown): string | null {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || Math.abs(seconds) > 8.64e12) return null;
  return new Date(seconds * 1000).toISOString();
}
