import { after, test } from "node:test";
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { startTestService } from "../../helpers/service.ts";
import { makeTestChain, startTlsServer } from "./_tls-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const chain = makeTestChain(20);
const server = await startTlsServer(chain);
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: server.port });
after(() => server.close());
const leaf = new X509Certificate(chain.leafPem);
const root = new X509Certificate(chain.caPem);

// Runs first: answers are cached per input for ten minutes.
test("ssl-certificate: a handshake the server breaks is a 502", async () => {
  server.state.mode = "reset";
  try {
    expect502(await service.call("ssl-certificate", { host: "127.0.0.1", port: server.port }), "target_error");
  } finally {
    server.state.mode = "tls";
  }
});

test("ssl-certificate: decodes every certificate of the chain, leaf first", async () => {
  const data = dataOf(await service.call("ssl-certificate", { host: "127.0.0.1", port: server.port }));
  assert.equal(data.trusted, false);
  assert.equal(data.trustError, "SELF_SIGNED_CERT_IN_CHAIN");
  assert.equal(data.hostnameMatch, true);
  assert.equal(data.linked, true);
  assert.equal(data.chain.length, 2);
  const [first, second] = data.chain;
  assert.equal(first.commonName, "localhost");
  assert.equal(first.serialNumber, leaf.serialNumber.toLowerCase());
  assert.equal(first.fingerprintSha256, leaf.fingerprint256);
  assert.equal(first.fingerprintSha1, leaf.fingerprint);
  assert.equal(first.keyType, "rsa");
  assert.equal(first.keyBits, 2048);
  assert.equal(first.curve, null);
  assert.equal(first.signatureAlgorithm, "ecdsa-with-SHA256");
  assert.deepEqual(first.ocspUrls, ["http://ocsp.test.invalid/"]);
  assert.deepEqual(first.caIssuerUrls, ["http://ca.test.invalid/root.crt"]);
  assert.deepEqual(first.crlUrls, ["http://crl.test.invalid/leaf.crl"]);
  assert.equal(first.hasScts, false);
  assert.equal(first.isCA, false);
  assert.equal(first.selfSigned, false);
  assert.deepEqual(first.sans, ["localhost", "127.0.0.1"]);
  assert.equal(second.commonName, "Web Test Root CA");
  assert.equal(second.fingerprintSha256, root.fingerprint256);
  assert.equal(second.keyType, "ec");
  assert.equal(second.curve, "prime256v1");
  assert.equal(second.keyBits, 256);
  assert.equal(second.isCA, true);
  assert.equal(second.selfSigned, true);
  assert.deepEqual(second.crlUrls, []);
});

test("ssl-certificate: bad input is a free 400 and nothing is contacted", async () => {
  const before = server.state.connections;
  await expectFree400(await service.request(`/v1/ssl-certificate?${query({ host: "exa mple.com" })}`), "host");
  await expectFree400(await service.request(`/v1/ssl-certificate?${query({ host: "example.com", port: 0 })}`), "port");
  assert.equal(server.state.connections, before);
});

test("ssl-certificate: private targets are refused before any connection", async () => {
  const before = server.state.connections;
  expectRefused(await service.call("ssl-certificate", { host: "10.0.0.1" }), /private/);
  expectRefused(await service.call("ssl-certificate", { host: "::1" }), /loopback/);
  assert.equal(server.state.connections, before);
});
