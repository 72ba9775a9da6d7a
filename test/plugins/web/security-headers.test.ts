import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { checkCookies, checkHeaders, gradeOf, scoreOf } from "../../../plugins/web/_security-grade.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const strict = {
  "content-security-policy": "default-src 'self'; object-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=()",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "set-cookie": "session=abc; Path=/; Secure; HttpOnly; SameSite=Lax",
};
const target = await startTarget({
  "/strict": { headers: strict, body: "ok" },
  "/sloppy": {
    headers: {
      "content-security-policy": "default-src 'self'; script-src 'self' 'unsafe-inline'",
      "x-frame-options": "ALLOW-FROM https://example.com",
      "x-powered-by": "Express 4.18.2",
      "set-cookie": ["id=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/", "theme=dark; Secure; HttpOnly"],
    },
    body: "ok",
  },
  "/hang-up": "hang-up",
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());
const byName = (data: any) => Object.fromEntries(data.headers.map((h: any) => [h.name, h]));

test("security-headers: a strict page over plain HTTP gets everything but HSTS", async () => {
  const data = dataOf(await service.call("security-headers", { url: target.url("/strict") }));
  const headers = byName(data);
  assert.equal(data.https, false);
  assert.equal(data.httpsRedirect, false);
  assert.equal(headers["strict-transport-security"].rating, "missing");
  assert.match(headers["strict-transport-security"].advice, /HTTPS/);
  assert.equal(headers["content-security-policy"].rating, "good");
  assert.equal(headers["x-frame-options"].present, false);
  assert.equal(headers["x-frame-options"].rating, "good", "frame-ancestors does the job");
  assert.equal(data.score, 75);
  assert.equal(data.grade, "B");
  assert.deepEqual(data.cookies, [{ name: "session", secure: true, httpOnly: true, sameSite: "Lax" }]);
});

test("security-headers: weak values earn half, leaks and loose cookies cost points", async () => {
  const data = dataOf(await service.call("security-headers", { url: target.url("/sloppy") }));
  const headers = byName(data);
  assert.equal(headers["content-security-policy"].rating, "weak");
  assert.match(headers["content-security-policy"].advice, /unsafe-inline/);
  assert.equal(headers["x-frame-options"].rating, "weak");
  assert.equal(headers["x-powered-by"].rating, "leak");
  assert.equal(headers["x-content-type-options"].rating, "missing");
  assert.deepEqual(
    data.cookies.map((c: any) => [c.name, c.secure]),
    [
      ["id", false],
      ["theme", true],
    ],
  );
  // CSP 12 + frame 7, less 5 for the leak and 5 for the insecure cookie.
  assert.equal(data.score, 9);
  assert.equal(data.grade, "F");
});

test("security-headers: over HTTPS a long HSTS and the rest make an A+", () => {
  const checks = checkHeaders({ ...strict, "strict-transport-security": "max-age=31536000; includeSubDomains" }, true);
  const score = scoreOf(checks, checkCookies(strict["set-cookie"]));
  assert.equal(score, 100);
  assert.equal(gradeOf(score), "A+");
  const short = checkHeaders({ "strict-transport-security": "max-age=600" }, true).find(
    (c) => c.name === "strict-transport-security",
  );
  assert.equal(short?.rating, "weak");
});

test("security-headers: a target that hangs up is a 502", async () => {
  expect502(await service.call("security-headers", { url: target.url("/hang-up") }), "target_error");
});

test("security-headers: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(await service.request(`/v1/security-headers?${query({ url: "javascript:alert(1)" })}`), "url");
  await expectFree400(await service.request("/v1/security-headers"), "url");
  assert.equal(target.hits.length, before);
});

test("security-headers: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("security-headers", { url: "http://192.168.1.1/" }), /private/);
  assert.equal(target.hits.length, before);
});
