import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { lexicalSignals, redirectSignals, verdictOf } from "../../../plugins/web/_url-signals.ts";
import { makeTestChain, startTlsServer } from "./_tls-server.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const target = await startTarget({
  "/start": { status: 302, headers: { location: "/home" } },
  "/home": { body: "<p>home</p>" },
  "/missing": { status: 404, body: "no" },
  "/hang-up": "hang-up",
});
const tlsServer = await startTlsServer(makeTestChain(20));
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
const tlsService = await startTestService({ plugins: ["web"], egressLoopbackPort: tlsServer.port });
after(() => Promise.all([target.close(), tlsServer.close()]));
const ids = (data: any) => data.signals.map((s: any) => s.id);

test("verify-url: follows the chain and flags plain HTTP and a bare IP", async () => {
  const data = dataOf(await service.call("verify-url", { url: target.url("/start") }));
  assert.equal(data.reachable, true);
  assert.equal(data.status, 200);
  assert.equal(data.finalUrl, target.url("/home"));
  assert.deepEqual(data.redirects, [target.url("/home")]);
  assert.equal(data.contentType, "text/html");
  assert.equal(data.tls, null);
  assert.deepEqual(ids(data), ["no-https", "ip-host"]);
  assert.equal(data.verdict, "caution");
});

test("verify-url: an error status means not reachable", async () => {
  const data = dataOf(await service.call("verify-url", { url: target.url("/missing") }));
  assert.equal(data.reachable, false);
  assert.equal(data.status, 404);
  assert.ok(ids(data).includes("error-status"));
});

test("verify-url: an https host with an untrusted certificate is danger and is not requested", async () => {
  const before = tlsServer.state.connections;
  const data = dataOf(await tlsService.call("verify-url", { url: `https://127.0.0.1:${tlsServer.port}/login` }));
  assert.equal(data.tls.valid, false);
  assert.equal(data.tls.trustError, "SELF_SIGNED_CERT_IN_CHAIN");
  assert.equal(data.tls.hostnameMatch, true);
  assert.equal(data.reachable, false);
  assert.equal(data.finalUrl, null);
  assert.deepEqual(ids(data), ["ip-host", "tls-invalid"]);
  assert.equal(data.verdict, "danger");
  assert.equal(tlsServer.state.connections - before, 1, "one handshake, no HTTP request");
});

test("verify-url: the heuristics read look-alike hosts, cross-site moves and downgrades", () => {
  assert.deepEqual(
    lexicalSignals("https://xn--pypal-4ve.com/").map((s) => s.id),
    ["punycode-host"],
  );
  assert.deepEqual(
    lexicalSignals("https://a.b.c.d.example.com/").map((s) => s.id),
    ["deep-subdomain"],
  );
  assert.deepEqual(
    lexicalSignals("https://www.example.com/").map((s) => s.id),
    [],
  );
  assert.deepEqual(
    lexicalSignals("https://secure-login-verify-account.example/").map((s) => s.id),
    ["hyphenated-domain"],
  );
  const moved = redirectSignals("https://bank.example/", "https://bank.example.evil.test/", [
    "http://bank.example/x",
    "https://bank.example.evil.test/",
  ]);
  assert.deepEqual(
    moved.map((s) => s.id),
    ["cross-site-redirect", "https-downgrade"],
  );
  assert.equal(verdictOf(moved), "danger");
  assert.equal(verdictOf([]), "ok");
});

test("verify-url: a target that hangs up is a 502", async () => {
  expect502(await service.call("verify-url", { url: target.url("/hang-up") }), "target_error");
  tlsServer.state.mode = "reset";
  try {
    expect502(
      await tlsService.call("verify-url", { url: `https://127.0.0.1:${tlsServer.port}/other` }),
      "target_error",
    );
  } finally {
    tlsServer.state.mode = "tls";
  }
});

test("verify-url: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(await service.request(`/v1/verify-url?${query({ url: "file:///etc/passwd" })}`), "url");
  assert.equal(target.hits.length, before);
});

test("verify-url: a private target is refused before any request", async () => {
  const before = target.hits.length + tlsServer.state.connections;
  expectRefused(await service.call("verify-url", { url: "http://10.0.0.1/" }), /private/);
  expectRefused(await service.call("verify-url", { url: "https://10.0.0.1/" }), /private/);
  assert.equal(target.hits.length + tlsServer.state.connections, before);
});
