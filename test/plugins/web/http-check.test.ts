import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const target = await startTarget({
  "/page": { body: "<p>hello</p>", headers: { "x-served-by": "test" } },
  "/moved": { status: 301, headers: { location: "/page" } },
  "/gone": { status: 410, body: "gone" },
  "/hang-up": "hang-up",
  "/to-private": { status: 302, headers: { location: "http://10.0.0.1/admin" } },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("http-check: follows redirects and reports status, headers, size and timings", async () => {
  const data = dataOf(await service.call("http-check", { url: target.url("/moved") }));
  assert.equal(data.url, target.url("/moved"));
  assert.equal(data.finalUrl, target.url("/page"));
  assert.deepEqual(data.redirects, [target.url("/page")]);
  assert.equal(data.status, 200);
  assert.equal(data.ok, true);
  assert.equal(data.contentType, "text/html");
  assert.equal(data.bytes, Buffer.byteLength("<p>hello</p>"));
  assert.equal(data.headers["x-served-by"], "test");
  assert.equal(data.address, "127.0.0.1");
  assert.ok(data.timings.totalMs > 0 && data.timings.resolveMs >= 0);
  assert.deepEqual(
    target.hits.slice(-2).map((h) => h.path),
    ["/moved", "/page"],
  );
});

test("http-check: an error status is an answer, and HEAD sends a HEAD", async () => {
  const data = dataOf(await service.call("http-check", { url: target.url("/gone"), method: "HEAD" }));
  assert.equal(data.status, 410);
  assert.equal(data.ok, false);
  assert.equal(data.bytes, 0);
  assert.equal(target.hits.at(-1)?.method, "HEAD");
});

test("http-check: a target that hangs up is a 502", async () => {
  expect502(await service.call("http-check", { url: target.url("/hang-up") }), "target_error");
});

test("http-check: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(await service.request(`/v1/http-check?${query({ url: "ftp://example.com/" })}`), "url");
  await expectFree400(
    await service.request(`/v1/http-check?${query({ url: target.url("/page"), method: "DELETE" })}`),
    "method",
  );
  await expectFree400(await service.request(`/v1/http-check?${query({ url: "not a url" })}`), "url");
  assert.equal(target.hits.length, before);
});

test("http-check: private targets are refused, directly or through a redirect", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("http-check", { url: "http://10.0.0.1/" }), /private/);
  expectRefused(await service.call("http-check", { url: "http://[::ffff:127.0.0.1]/" }), /IPv4-mapped/);
  assert.equal(target.hits.length, before);
  expectRefused(await service.call("http-check", { url: target.url("/to-private") }), /10\.0\.0\.1 is private/);
});
