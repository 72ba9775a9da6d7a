import { test } from "node:test";
import assert from "node:assert/strict";
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from "jose";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const secret = "example-secret";
const hs256 =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwibmFtZSI6IkFkYSIsImlhdCI6MTUxNjIzOTAyMiwiZXhwIjoxNTE2MjQyNjIyfQ.uPOIq3haGjr6G-FLhzWraQSP-KugQKVQWu0PqxSjNvM";

const rsa = await generateKeyPair("RS256");
const otherRsa = await generateKeyPair("RS256");
const ec = await generateKeyPair("ES256");
const rsaPem = await exportSPKI(rsa.publicKey);
const rs256 = await new SignJWT({ sub: "svc" })
  .setProtectedHeader({ alg: "RS256", kid: "k1" })
  .setIssuedAt(1700000000)
  .sign(rsa.privateKey);
const es256 = await new SignJWT({ sub: "svc" }).setProtectedHeader({ alg: "ES256" }).sign(ec.privateKey);
const future = await new SignJWT({ sub: "later" })
  .setProtectedHeader({ alg: "HS256" })
  .setNotBefore(4102444800)
  .setExpirationTime(4133980800)
  .sign(new TextEncoder().encode(secret));
const unsigned = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.";

test("decode-jwt: decodes without verifying when no key is given", async () => {
  assert.deepEqual(dataOf(await service.call("decode-jwt", { token: hs256 })), {
    header: { alg: "HS256", typ: "JWT" },
    payload: { sub: "user-42", name: "Ada", iat: 1516239022, exp: 1516242622 },
    issuedAt: "2018-01-18T01:30:22.000Z",
    expiresAt: "2018-01-18T02:30:22.000Z",
    notBefore: null,
    expired: true,
    notYetValid: false,
    verified: false,
    verification: { method: "none", algorithm: "HS256", error: null },
  });
});

const verifications = [
  { name: "the right HS256 secret", input: { token: hs256, secret }, verified: true, error: null },
  {
    name: "a wrong secret",
    input: { token: hs256, secret: "guess" },
    verified: false,
    error: "The signature does not match",
  },
  { name: "a 'Bearer ' prefix is accepted", input: { token: `Bearer ${hs256}`, secret }, verified: true, error: null },
  { name: "RS256 with the PEM public key", input: { token: rs256, key: rsaPem }, verified: true, error: null },
  {
    name: "RS256 with another key",
    input: { token: rs256, key: await exportSPKI(otherRsa.publicKey) },
    verified: false,
    error: "The signature does not match",
  },
  {
    name: "RS256 with a JWK",
    input: { token: rs256, key: JSON.stringify(await exportJWK(rsa.publicKey)) },
    verified: true,
    error: null,
  },
  {
    name: "RS256 with a JWKS picked by kid",
    input: {
      token: rs256,
      key: JSON.stringify({
        keys: [
          { ...(await exportJWK(otherRsa.publicKey)), kid: "k0" },
          { ...(await exportJWK(rsa.publicKey)), kid: "k1" },
        ],
      }),
    },
    verified: true,
    error: null,
  },
  {
    name: "a JWKS without the kid",
    input: { token: rs256, key: JSON.stringify({ keys: [{ ...(await exportJWK(otherRsa.publicKey)), kid: "k0" }] }) },
    verified: false,
    error: "No key in the JWKS matches the token's kid and alg",
  },
  {
    name: "ES256 with a JWK",
    input: { token: es256, key: JSON.stringify(await exportJWK(ec.publicKey)) },
    verified: true,
    error: null,
  },
  {
    name: "an unsigned token never verifies",
    input: { token: unsigned, secret },
    verified: false,
    error: "The token is unsigned (alg none)",
  },
];
for (const c of verifications) {
  test(`decode-jwt: ${c.name}`, async () => {
    const data = dataOf(await service.call("decode-jwt", c.input));
    assert.equal(data.verified, c.verified);
    assert.equal(data.verification.error, c.error);
    assert.equal(data.verification.method, "secret" in c.input ? "secret" : "key");
  });
}

test("decode-jwt: nbf in the future and exp not yet passed", async () => {
  const data = dataOf(await service.call("decode-jwt", { token: future }));
  assert.equal(data.notBefore, "2100-01-01T00:00:00.000Z");
  assert.equal(data.expiresAt, "2101-01-01T00:00:00.000Z");
  assert.equal(data.issuedAt, null);
  assert.equal(data.expired, false);
  assert.equal(data.notYetValid, true);
});

test("decode-jwt: the RS256 header and issuedAt", async () => {
  const data = dataOf(await service.call("decode-jwt", { token: rs256 }));
  assert.deepEqual(data.header, { alg: "RS256", kid: "k1" });
  assert.equal(data.issuedAt, "2023-11-14T22:13:20.000Z");
  assert.equal(data.expiresAt, null);
  assert.equal(data.expired, false);
});

const refused = [
  { name: "a secret for an RS256 token", input: { token: rs256, secret }, field: "secret" },
  { name: "a public key for an HS256 token", input: { token: hs256, key: rsaPem }, field: "key" },
  { name: "both secret and key", input: { token: hs256, secret, key: rsaPem }, field: "key" },
  { name: "a key that is not PEM or JWK", input: { token: rs256, key: "not a key" }, field: "key" },
  {
    name: "an EC key for an RS256 token",
    input: { token: rs256, key: JSON.stringify(await exportJWK(ec.publicKey)) },
    field: "key",
  },
  { name: "a payload that is not JSON", input: { token: "eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln" }, field: "token" },
];
for (const c of refused) {
  test(`decode-jwt: ${c.name} is a 400`, async () => {
    expectHandler400(await service.call("decode-jwt", c.input), c.field);
  });
}

const bad = [
  { name: "missing token", query: "", field: "token" },
  { name: "a token without three parts", query: query({ token: "abc.def" }), field: "token" },
  { name: "an encrypted token (five parts)", query: query({ token: "a.b.c.d.e" }), field: "token" },
  { name: "an empty secret", query: query({ token: hs256, secret: "" }), field: "secret" },
];
for (const c of bad) {
  test(`decode-jwt: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/decode-jwt?${c.query}`), c.field);
  });
}

test("decode-jwt: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/decode-jwt?${query({ token: hs256 })}`));
});
