import { after, test } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { loadFixture, serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import pageSpeed from "../../../plugins/web/page-speed.ts";

const html = `<html><head><link rel="stylesheet" href="/a.css"><link rel="preload" as="font" href="/f.woff2">
<script src="/app.js"></script><script>var x = 1;</script><script type="application/ld+json">{}</script></head>
<body>${"<p>Some text to make the page worth compressing.</p>".repeat(60)}<img src="/1.png"><img src="/2.png"><iframe src="/frame"></iframe></body></html>`;
const gzipped = gzipSync(html);

const site = await startTarget({
  "/fast": { headers: { "content-encoding": "gzip", "cache-control": "public, max-age=600" }, body: gzipped },
  "/plain": { headers: { "cache-control": "no-store" }, body: html },
  "/hop": { status: 302, headers: { location: "/plain" } },
  "/broken": { status: 500 },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: site.port });
after(() => site.close());
const fixtures = new URL("./fixtures/", import.meta.url);
const timed = new Set(["server response time", "HTML download time"]);
const timingLoss = (factors: any[]) =>
  factors.filter((f) => timed.has(f.name)).reduce((sum, f) => sum + f.maxPoints - f.points, 0);

test("page-speed: times the page, reads compression and caching, counts resources and scores every factor", async () => {
  const out = await service.call(pageSpeed, { url: site.url("/fast") });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.compression, "gzip");
  assert.equal(data.bytes.transferred, gzipped.length);
  assert.equal(data.bytes.html, Buffer.byteLength(html));
  assert.ok(data.bytes.transferred < data.bytes.html);
  assert.equal(data.caching.cacheControl, "public, max-age=600");
  assert.equal(data.caching.cacheable, true);
  assert.deepEqual(data.resources, {
    scripts: 1,
    inlineScripts: 1,
    stylesheets: 1,
    images: 2,
    iframes: 1,
    fonts: 1,
    total: 6,
  });
  assert.equal(typeof data.timings.ttfbMs, "number");
  assert.ok(data.timings.totalMs >= 0);
  assert.equal(data.factors.length, 7);
  assert.equal(
    data.score,
    data.factors.reduce((sum: number, f: any) => sum + f.points, 0),
  );
  // The two timing factors depend on how busy the machine is; every other factor is earned in full.
  assert.deepEqual(
    data.factors.filter((f: any) => !timed.has(f.name) && f.points !== f.maxPoints),
    [],
  );
  assert.equal(data.score, 100 - timingLoss(data.factors));
  assert.equal(data.lighthouse, null);
  const heads = site.hits.filter((h) => h.method === "HEAD" && h.path === "/fast");
  assert.equal(heads.length, 1);
  assert.match(
    String(site.hits.find((h) => h.method === "GET" && h.path === "/fast")?.headers["accept-encoding"]),
    /gzip/,
  );
});

test("page-speed: an uncompressed, uncacheable page behind a redirect loses those points", async () => {
  const data = dataOf(await service.call(pageSpeed, { url: site.url("/hop") }));
  assert.equal(data.url, site.url("/plain"));
  assert.equal(data.redirects, 1);
  assert.equal(data.compression, null);
  assert.equal(data.caching.cacheable, false);
  const points = Object.fromEntries(data.factors.map((f: any) => [f.name, f.points]));
  assert.equal(points.compression, 0);
  assert.equal(points["caching headers"], 0);
  assert.equal(points.redirects, 5);
  assert.equal(data.score, 100 - 15 - 10 - 5 - timingLoss(data.factors));
});

test("page-speed: lighthouse=true adds PageSpeed Insights scores, with the configured key", async (t) => {
  const fixture = await loadFixture("pagespeed-insights.example-desktop", fixtures);
  fixture.request.path = fixture.request.path.replace("PLACEHOLDER", encodeURIComponent(site.url("/fast")));
  const psi = await serveFixtures(t, [fixture]);
  const withPsi = await startTestService({
    plugins: ["web"],
    egressLoopbackPort: site.port,
    env: { UPSTREAM_PAGESPEED_INSIGHTS_URL: psi.url, UPSTREAM_PAGESPEED_INSIGHTS_KEY: "test-key" },
  });
  const out = await withPsi.call(pageSpeed, { url: site.url("/fast"), lighthouse: true, strategy: "desktop" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out).lighthouse, {
    strategy: "desktop",
    performance: 99,
    accessibility: 88,
    bestPractices: 100,
    seo: 90,
    metrics: { fcpMs: 412, lcpMs: 656, tbtMs: 0, cls: 0.012, speedIndexMs: 513 },
  });
  assert.match(psi.calls[0].path, /[?&]key=test-key(&|$)/);
});

test("page-speed: PageSpeed Insights failing is a 502", async (t) => {
  const psi = await serveFixtures(t, [
    {
      source: "https://developers.google.com/speed/docs/insights/v5/get-started (error responses)",
      request: {
        method: "GET",
        path: `/runPagespeed?category=PERFORMANCE&category=ACCESSIBILITY&category=BEST_PRACTICES&category=SEO&url=${encodeURIComponent(site.url("/fast"))}&strategy=mobile`,
      },
      response: {
        status: 400,
        body: {
          error: {
            code: 400,
            message: "Lighthouse returned error: FAILED_DOCUMENT_REQUEST",
            status: "INVALID_ARGUMENT",
          },
        },
      },
    },
  ]);
  const withPsi = await startTestService({
    plugins: ["web"],
    egressLoopbackPort: site.port,
    env: { UPSTREAM_PAGESPEED_INSIGHTS_URL: psi.url },
  });
  const out = await withPsi.call(pageSpeed, { url: site.url("/fast"), lighthouse: true });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).details?.upstream, "pagespeed-insights");
});

test("page-speed: a failing target is a 502", async () => {
  const out = await service.call(pageSpeed, { url: site.url("/broken") });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).code, "target_error");
});

test("page-speed: bad input is a free 400 and fetches nothing", async () => {
  const before = site.hits.length;
  const res = await service.request(`/v1/page-speed?url=${encodeURIComponent(site.url("/fast"))}&strategy=tablet`);
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.ok(
    body.error.details.issues.some((i: any) => i.field === "strategy"),
    JSON.stringify(body),
  );
  assert.equal(site.hits.length, before);
});

test("page-speed: a private target is refused with a 400", async () => {
  const out = await service.call(pageSpeed, { url: "http://169.254.169.254/latest/meta-data/" });
  assert.equal(out.status, 400);
});
