import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const robotsTxt = [
  "User-agent: GPTBot",
  "Disallow: /",
  "",
  "User-agent: *",
  "Crawl-delay: 5",
  "Disallow: /private/",
  "Allow: /private/press/",
  "",
  "Sitemap: https://example.test/sitemap.xml",
].join("\n");
const target = await startTarget({ "/robots.txt": { headers: { "content-type": "text/plain" }, body: robotsTxt } });
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("robots: applies the group for the user agent, with crawl delay and sitemaps", async () => {
  const data = dataOf(await service.call("robots", { url: target.url("/private/report.html?x=1") }));
  assert.equal(data.robotsUrl, target.url("/robots.txt"));
  assert.equal(data.fetchStatus, 200);
  assert.equal(data.policy, "file");
  assert.equal(data.path, "/private/report.html?x=1");
  assert.equal(data.allowed, false);
  assert.equal(data.matchedLine, 6);
  assert.equal(data.rule, "Disallow: /private/");
  assert.equal(data.crawlDelay, 5);
  assert.deepEqual(data.sitemaps, ["https://example.test/sitemap.xml"]);
  assert.equal(data.bytes, Buffer.byteLength(robotsTxt));
  assert.equal(target.hits.at(-1)?.path, "/robots.txt");
});

test("robots: the longer Allow wins, and another agent has its own group", async () => {
  const press = dataOf(await service.call("robots", { url: target.url("/"), path: "/private/press/kit" }));
  assert.equal(press.allowed, true);
  assert.equal(press.rule, "Allow: /private/press/");
  const bot = dataOf(await service.call("robots", { url: target.url("/"), path: "/blog", userAgent: "GPTBot" }));
  assert.equal(bot.allowed, false);
  assert.equal(bot.rule, "Disallow: /");
  assert.equal(bot.crawlDelay, null);
  const open = dataOf(await service.call("robots", { url: target.url("/blog") }));
  assert.equal(open.allowed, true);
  assert.equal(open.matchedLine, null);
});

test("robots: a 404 allows everything and a 503 disallows everything (RFC 9309)", async () => {
  target.set("/robots.txt", { status: 404, body: "no" });
  const missing = dataOf(await service.call("robots", { url: target.url("/a") }));
  assert.equal(missing.policy, "allow-all");
  assert.equal(missing.allowed, true);
  target.set("/robots.txt", { status: 503, body: "busy" });
  const down = dataOf(await service.call("robots", { url: target.url("/b") }));
  assert.equal(down.policy, "disallow-all");
  assert.equal(down.allowed, false);
});

test("robots: a site that hangs up is a 502", async () => {
  target.set("/robots.txt", "hang-up");
  expect502(await service.call("robots", { url: target.url("/c") }), "target_error");
});

test("robots: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(await service.request(`/v1/robots?${query({ url: target.url("/"), path: "no-slash" })}`), "path");
  await expectFree400(
    await service.request(`/v1/robots?${query({ url: target.url("/"), userAgent: "" })}`),
    "userAgent",
  );
  await expectFree400(await service.request(`/v1/robots?${query({ url: "example.com" })}`), "url");
  assert.equal(target.hits.length, before);
});

test("robots: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("robots", { url: "http://172.16.0.5/page" }), /private/);
  expectRefused(await service.call("robots", { url: "http://169.254.169.254/latest/" }), /metadata/);
  assert.equal(target.hits.length, before);
});
