import { after, test } from "node:test";
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { startTestService } from "../../helpers/service.ts";
import { makeTestChain, startTlsServer } from "./_tls-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";
import { errorOf } from "../../helpers/expect.ts";
import sslCheck from "../../../plugins/web/ssl-check.ts";

const chain = makeTestChain(20);
const server = await startTlsServer(chain);
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: server.port });
after(() => server.close());
const leaf = new X509Certificate(chain.leafPem);

// Runs first: answers are cached per input for ten minutes.
test("ssl-check: a handshake the server breaks is a 502", async () => {
  server.state.mode = "reset";
  try {
    const out = await service.call(sslCheck, { host: "127.0.0.1", port: server.port });
    expect502(out, "target_error");
    assert.match(errorOf(out).message, /TLS handshake/);
  } finally {
    server.state.mode = "tls";
  }
});

test("ssl-check: reports the certificate the server sent and why it is not trusted", async () => {
  const data = dataOf(await service.call(sslCheck, { host: "127.0.0.1", port: server.port }));
  assert.equal(data.address, "127.0.0.1");
  assert.equal(data.hostnameMatch, true);
  assert.equal(data.trusted, false);
  assert.equal(data.trustError, "SELF_SIGNED_CERT_IN_CHAIN");
  assert.equal(data.valid, false);
  assert.ok(data.daysRemaining === 19 || data.daysRemaining === 20, String(data.daysRemaining));
  assert.equal(data.validTo, new Date(leaf.validTo).toISOString());
  assert.equal(data.subject, "CN=localhost, O=x402 tests");
  assert.equal(data.issuer, "CN=Web Test Root CA, O=x402 tests");
  assert.deepEqual(data.sans, ["localhost", "127.0.0.1"]);
  assert.match(data.protocol!, /^TLSv1\.[23]$/);
  assert.match(data.cipher, /^TLS_/);
});

test("ssl-check: bad input is a free 400 and nothing is contacted", async () => {
  const before = server.state.connections;
  await expectFree400(await service.request(`/v1/ssl-check?${query({ host: "https://example.com/" })}`), "host");
  await expectFree400(await service.request(`/v1/ssl-check?${query({ host: "example.com", port: 70000 })}`), "port");
  await expectFree400(await service.request("/v1/ssl-check"), "host");
  assert.equal(server.state.connections, before);
});

test("ssl-check: private targets and other ports are refused before any connection", async () => {
  const before = server.state.connections;
  expectRefused(await service.call(sslCheck, { host: "10.0.0.1" }), /private/);
  expectRefused(await service.call(sslCheck, { host: "169.254.169.254" }), /metadata/);
  expectRefused(await service.call(sslCheck, { host: "127.0.0.1" }), /loopback/);
  expectRefused(await service.call(sslCheck, { host: "127.0.0.1", port: 8443 }), /port 8443 is not allowed/);
  assert.equal(server.state.connections, before);
});
