import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startDnsServer } from "./_dns-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const dnsServer = await startDnsServer({
  names: {
    "example.test": {
      MX: [
        { priority: 20, exchange: "backup.example.test" },
        { priority: 10, exchange: "mail.example.test" },
      ],
    },
    "gmial.com": { MX: [{ priority: 10, exchange: "mx.gmial.com" }] },
    "mailinator.com": { MX: [{ priority: 10, exchange: "mail.mailinator.com" }] },
    "nullmx.test": { MX: [{ priority: 0, exchange: "" }] },
    "web-only.test": { A: ["93.184.215.14"] },
    "parked.test": { TXT: [["parked"]] },
  },
  servfail: ["broken.test"],
});
const service = await startTestService({ plugins: ["web"], env: { DNS_SERVERS: dnsServer.server } });
after(() => dnsServer.close());

test("email-check: a good address has its MX hosts, best first", async () => {
  const data = dataOf(await service.call("email-check", { email: "Jane.Doe@Example.TEST" }));
  assert.equal(data.syntaxValid, true);
  assert.equal(data.normalized, "Jane.Doe@example.test");
  assert.equal(data.domain, "example.test");
  assert.deepEqual(data.mx, [
    { priority: 10, exchange: "mail.example.test" },
    { priority: 20, exchange: "backup.example.test" },
  ]);
  assert.equal(data.mailServer, "mx");
  assert.equal(data.domainExists, true);
  assert.equal(data.verdict, "valid");
  assert.equal(data.disposable, false);
  assert.equal(data.roleAccount, false);
  assert.equal(data.didYouMean, null);
});

test("email-check: a disposable role address is risky", async () => {
  const data = dataOf(await service.call("email-check", { email: "support@mailinator.com" }));
  assert.equal(data.disposable, true);
  assert.equal(data.roleAccount, true);
  assert.equal(data.verdict, "risky");
});

test("email-check: a typo of a common provider gets a suggestion", async () => {
  const data = dataOf(await service.call("email-check", { email: "jane@gmial.com" }));
  assert.equal(data.didYouMean, "gmail.com");
  assert.equal(data.freeProvider, false);
});

test("email-check: without MX the A record is the mail server (RFC 5321)", async () => {
  const data = dataOf(await service.call("email-check", { email: "a@web-only.test" }));
  assert.equal(data.mailServer, "a-fallback");
  assert.deepEqual(data.mx, []);
  assert.equal(data.verdict, "valid");
  assert.ok(dnsServer.queries.includes("web-only.test A"));
});

test("email-check: a null MX, no server at all, or no domain make the address invalid", async () => {
  const nullMx = dataOf(await service.call("email-check", { email: "a@nullmx.test" }));
  assert.equal(nullMx.mailServer, "null-mx");
  assert.equal(nullMx.verdict, "invalid");
  const parked = dataOf(await service.call("email-check", { email: "a@parked.test" }));
  assert.equal(parked.mailServer, "none");
  assert.equal(parked.domainExists, true);
  assert.equal(parked.verdict, "invalid");
  const missing = dataOf(await service.call("email-check", { email: "a@missing.test" }));
  assert.equal(missing.domainExists, false);
  assert.equal(missing.verdict, "invalid");
});

test("email-check: bad syntax is answered without any lookup", async () => {
  const before = dnsServer.queries.length;
  for (const email of [
    "no-at-sign",
    "two@@example.test",
    "a b@example.test",
    "a@example",
    "a@-bad-.test",
    `${"x".repeat(65)}@example.test`,
  ]) {
    const data = dataOf(await service.call("email-check", { email }));
    assert.equal(data.syntaxValid, false, email);
    assert.equal(data.verdict, "invalid", email);
  }
  assert.equal(dnsServer.queries.length, before);
});

test("email-check: a resolver failing is a 502", async () => {
  expect502(await service.call("email-check", { email: "a@broken.test" }), "target_error");
});

test("email-check: bad input is a free 400 and nothing is queried", async () => {
  const before = dnsServer.queries.length;
  await expectFree400(await service.request("/v1/email-check"), "email");
  await expectFree400(await service.request(`/v1/email-check?${query({ email: "x".repeat(321) })}`), "email");
  assert.equal(dnsServer.queries.length, before);
});

test("email-check: private and special-use domains are refused before any lookup", async () => {
  const before = dnsServer.queries.length;
  expectRefused(await service.call("email-check", { email: "admin@printer.local" }), /\.local/);
  expectRefused(await service.call("email-check", { email: "admin@corp.internal" }), /\.internal/);
  assert.equal(dnsServer.queries.length, before);
});
