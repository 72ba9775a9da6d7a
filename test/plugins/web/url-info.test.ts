import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { describeUrl } from "../../../plugins/web/_url-parts.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const target = await startTarget({
  "/go?ref=feed&ref=mail&q=a%20b": { status: 301, headers: { location: "/landing" } },
  "/landing": {
    headers: { server: "test-server/1.0" },
    body: "<html><head><title>Landing page</title></head><body>hi</body></html>",
  },
  "/hang-up": "hang-up",
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("url-info: takes the URL apart and follows it to where it ends", async () => {
  const url = `${target.url("/go?ref=feed&ref=mail&q=a%20b")}#top`;
  const data = dataOf(await service.call("url-info", { url }));
  assert.equal(data.url, url);
  assert.equal(data.scheme, "http");
  assert.equal(data.hostname, "127.0.0.1");
  assert.equal(data.port, target.port);
  assert.equal(data.path, "/go");
  assert.deepEqual(data.query, [
    { name: "ref", value: "feed" },
    { name: "ref", value: "mail" },
    { name: "q", value: "a b" },
  ]);
  assert.equal(data.fragment, "top");
  assert.equal(data.isIp, true);
  assert.equal(data.ipVersion, 4);
  assert.equal(data.registrableDomain, null);
  assert.equal(data.address, "127.0.0.1");
  assert.deepEqual(data.final, {
    url: target.url("/landing"),
    status: 200,
    redirects: [target.url("/landing")],
    contentType: "text/html",
    bytes: 68,
    server: "test-server/1.0",
    title: "Landing page",
  });
});

test("url-info: without follow nothing is requested", async () => {
  const before = target.hits.length;
  const data = dataOf(await service.call("url-info", { url: target.url("/landing?x=1"), follow: false }));
  assert.equal(data.final, null);
  assert.deepEqual(data.query, [{ name: "x", value: "1" }]);
  assert.equal(target.hits.length, before);
});

test("url-info: a target that hangs up is a 502", async () => {
  expect502(await service.call("url-info", { url: target.url("/hang-up") }), "target_error");
});

test("url-info: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(await service.request(`/v1/url-info?${query({ url: "mailto:a@example.com" })}`), "url");
  await expectFree400(
    await service.request(`/v1/url-info?${query({ url: target.url("/landing"), follow: "maybe" })}`),
    "follow",
  );
  assert.equal(target.hits.length, before);
});

test("url-info: a private target is refused, even without follow", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("url-info", { url: "http://10.0.0.1/", follow: false }), /private/);
  expectRefused(await service.call("url-info", { url: "https://[fd00::1]/" }), /unique-local/);
  assert.equal(target.hits.length, before);
});

test("url-info: registrable domain, public suffix and sub-domain come from the Public Suffix List", () => {
  const parts = describeUrl("https://blog.shop.example.co.uk:8443/a");
  assert.equal(parts.registrableDomain, "example.co.uk");
  assert.equal(parts.publicSuffix, "co.uk");
  assert.equal(parts.subdomain, "blog.shop");
  assert.equal(parts.isIcannSuffix, true);
  assert.equal(parts.port, 8443);
  const pages = describeUrl("https://alice.github.io/");
  assert.equal(pages.registrableDomain, "alice.github.io");
  assert.equal(pages.isPrivateSuffix, true);
  const idn = describeUrl("https://bücher.example/");
  assert.equal(idn.hostname, "xn--bcher-kva.example");
  assert.equal(idn.unicodeHostname, "bücher.example");
  assert.equal(describeUrl("http://[2001:db8::1]/").ipVersion, 6);
});
