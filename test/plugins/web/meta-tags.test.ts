import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const page = `<!doctype html><html lang="fr"><head>
<meta charset="windows-1252">
<title>  Caf\u00e9 du  Port </title>
<meta name="Description" content="Le meilleur caf\u00e9.">
<meta name="robots" content="index, follow">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="/fr/cafe">
<meta property="og:title" content="Caf\u00e9 du Port"><meta property="og:image" content="/img/port.jpg">
<meta property="og:image" content="/img/second.jpg">
<meta name="twitter:card" content="summary_large_image"><meta name="twitter:site" content="@cafeduport">
<link rel="icon" href="/favicon.ico" sizes="32x32"><link rel="apple-touch-icon" href="https://cdn.example.test/touch.png">
<link rel="stylesheet" href="/style.css">
</head><body><h1>Bienvenue</h1></body></html>`;

const target = await startTarget({
  "/cafe": { status: 302, headers: { location: "/fr/cafe" } },
  "/fr/cafe": { headers: { "content-type": "text/html" }, body: Buffer.from(page, "latin1") },
  "/bare": { body: "<p>no head at all</p>" },
  "/error": { status: 500, body: "<title>Oops</title>" },
  "/data": { headers: { "content-type": "application/json" }, body: "{}" },
  "/hang-up": "hang-up",
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("meta-tags: reads title, description, canonical, OpenGraph, Twitter and icons in the page's charset", async () => {
  const data = dataOf(await service.call("meta-tags", { url: target.url("/cafe") }));
  assert.equal(data.finalUrl, target.url("/fr/cafe"));
  assert.equal(data.status, 200);
  assert.equal(data.title, "Café du Port");
  assert.equal(data.description, "Le meilleur café.");
  assert.equal(data.canonical, target.url("/fr/cafe"));
  assert.equal(data.lang, "fr");
  assert.equal(data.robots, "index, follow");
  assert.equal(data.viewport, "width=device-width, initial-scale=1");
  assert.deepEqual(data.openGraph, { "og:title": "Café du Port", "og:image": target.url("/img/port.jpg") });
  assert.deepEqual(data.twitter, { "twitter:card": "summary_large_image", "twitter:site": "@cafeduport" });
  assert.deepEqual(data.icons, [
    { rel: "icon", href: target.url("/favicon.ico"), sizes: "32x32", type: null },
    { rel: "apple-touch-icon", href: "https://cdn.example.test/touch.png", sizes: null, type: null },
  ]);
});

test("meta-tags: a page without metadata answers nulls and empty maps", async () => {
  const data = dataOf(await service.call("meta-tags", { url: target.url("/bare") }));
  assert.equal(data.title, null);
  assert.equal(data.canonical, null);
  assert.deepEqual(data.openGraph, {});
  assert.deepEqual(data.icons, []);
});

test("meta-tags: an error status or a hang-up is a 502; JSON is a 400", async () => {
  expect502(await service.call("meta-tags", { url: target.url("/error") }), "target_error");
  expect502(await service.call("meta-tags", { url: target.url("/hang-up") }), "target_error");
  expectRefused(await service.call("meta-tags", { url: target.url("/data") }), /not an HTML page/);
});

test("meta-tags: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(await service.request(`/v1/meta-tags?${query({ url: `http://x/${"a".repeat(2100)}` })}`), "url");
  await expectFree400(await service.request("/v1/meta-tags"), "url");
  assert.equal(target.hits.length, before);
});

test("meta-tags: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("meta-tags", { url: "http://10.1.2.3/" }), /private/);
  expectRefused(await service.call("meta-tags", { url: "http://100.64.0.1/" }), /carrier-grade NAT/);
  assert.equal(target.hits.length, before);
});
