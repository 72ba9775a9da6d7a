import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTarget } from "../../helpers/target-server.ts";
import { bundleService, dataOf, expectFree400, statuses } from "./_bundles.ts";

const PAGE = `<!doctype html><html lang="en"><head><title>Status of Example</title><meta name="description" content="Service status">
<meta name="viewport" content="width=device-width"><link rel="canonical" href="/"><meta property="og:title" content="Example status">
<script src="/app.js"></script></head><body><h1>All systems operational</h1><p>Every service answers. The API, the site and the workers are up.</p>
<a href="/about">About</a></body></html>`;
const HEADERS = {
  "strict-transport-security": "max-age=63072000",
  "content-security-policy": "default-src 'self'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};
const target = await startTarget({
  "/": { headers: HEADERS, body: PAGE },
  "/health": { headers: { "content-type": "application/json" }, body: '{"status":"ok"}' },
  "/robots.txt": {
    headers: { "content-type": "text/plain" },
    body: "User-agent: *\nAllow: /\nSitemap: http://127.0.0.1/sitemap.xml\n",
  },
});
after(() => target.close());
const web = (t: { after(fn: () => unknown): void }) =>
  bundleService(t, [], { egressLoopbackPort: target.port, plugins: ["bundles", "web"] });

test("monitoring-suite: probe, health, headers and speed of a page; plain http skips TLS, an IP skips DNS", async (t) => {
  const { service } = await web(t);
  const data = dataOf(
    await service.call("monitoring-suite", {
      url: target.url("/"),
      keyword: "all systems operational",
      expectedStatus: 200,
    }),
  );
  assert.deepEqual(statuses(data), { monitor: 200, health: 200, headers: 200, speed: 200 });
  assert.deepEqual(
    data.skipped.map((s: any) => s.part),
    ["tls", "dns"],
  );
  assert.equal(data.parts.monitor.data.keywordFound, true);
  assert.equal(data.summary.httpStatus, 200);
  assert.equal(data.summary.status, data.summary.alerts.length ? "degraded" : "up");
  const grade = data.parts.headers.data.grade;
  assert.equal(data.summary.alerts.includes(`security headers graded ${grade}`), grade === "D" || grade === "F");
});

test("monitoring-suite: a missing keyword is down (the monitor's verdict), a missing health endpoint an alert", async (t) => {
  const { service } = await web(t);
  const data = dataOf(
    await service.call("monitoring-suite", { url: target.url("/"), keyword: "maintenance", healthPath: "/healthz" }),
  );
  assert.equal(data.parts.monitor.status, 200);
  assert.equal(data.parts.monitor.data.up, false);
  assert.equal(data.summary.status, "down");
  assert.ok(data.summary.alerts.includes("keyword not found on the page"));
  assert.ok(data.summary.alerts.includes("health endpoint unhealthy"), JSON.stringify(data.summary.alerts));
});

test("site-audit: SEO, speed and security scored with prioritized fixes", async (t) => {
  const { service } = await web(t);
  const data = dataOf(await service.call("site-audit", { url: target.url("/") }));
  assert.deepEqual(statuses(data), {
    meta: 200,
    robots: 200,
    content: 200,
    speed: 200,
    headers: 200,
    tech: 200,
    info: 200,
  });
  const { categories, fixes, score } = data.summary;
  assert.equal(categories.seo, 100, JSON.stringify(fixes));
  assert.equal(categories.speed, data.parts.speed.data.score);
  assert.equal(categories.security, data.parts.headers.data.score);
  assert.equal(score, Math.round((categories.seo + categories.speed + categories.security) / 3));
  assert.equal(fixes[0].priority, "high");
  assert.ok(fixes.some((f: any) => f.fix === "serve the site over https"));
});

test("site-audit: a target that answers 500 fails its page parts in place; robots still reports", async (t) => {
  const { service } = await web(t);
  target.set("/broken", { status: 500, body: "down" });
  const data = dataOf(await service.call("site-audit", { url: target.url("/broken") }));
  assert.equal(data.parts.robots.status, 200);
  assert.ok(data.failed.length > 0 && data.failed.length < 7, JSON.stringify(statuses(data)));
  for (const name of data.failed) assert.ok(data.parts[name].error.code, name);
});

test("domain-intel: parts of a family this deployment does not load are 503 in place; the phishing lists answer", async (t) => {
  const { service } = await bundleService(t, ["onchain/metamask-phishing.config"], { plugins: ["bundles", "onchain"] });
  const data = dataOf(await service.call("domain-intel", { domain: "uniswap-airdrop.app" }));
  assert.equal(data.parts.phishing.status, 200);
  assert.deepEqual(data.failed, ["a", "aaaa", "mx", "ns", "txt", "dmarc", "whois", "tls", "headers", "tech", "http"]);
  for (const name of data.failed) assert.equal(data.parts[name].error.code, "part_unavailable");
  assert.equal(data.summary.phishingVerdict, "phishing");
  assert.deepEqual([data.summary.registrar, data.summary.reachable, data.summary.addresses], [null, null, []]);
});

test("domain-intel, monitoring-suite, site-audit: bad input is a free 400", async (t) => {
  const { service } = await web(t);
  const hits = target.hits.length;
  await expectFree400(await service.request("/v1/domain-intel?domain=https%3A%2F%2Fexample.com"), "domain");
  await expectFree400(await service.request("/v1/monitoring-suite?url=ftp%3A%2F%2Fexample.com"), "url");
  await expectFree400(await service.request("/v1/site-audit"), "url");
  assert.equal(target.hits.length, hits);
});

test("monitoring-suite, site-audit: a URL the egress guard refuses is the caller's 400 before any part runs, never a charged 'down'", async (t) => {
  const { service } = await web(t);
  const hits = target.hits.length;
  for (const name of ["monitoring-suite", "site-audit"]) {
    for (const url of ["http://localhost/", "http://10.0.0.1/admin", "http://169.254.169.254/latest/meta-data/"]) {
      const out = await service.call(name, { url });
      assert.equal(out.status, 400, `${name} ${url}: ${JSON.stringify(out.body)}`);
      assert.match((out.body as any).error.message, /is (loopback|private|link-local)/);
    }
  }
  assert.equal(target.hits.length, hits, "no part reached anything");
});
