import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import extractEndpoint from "../../../plugins/web/extract.ts";

const paragraph = "The river town kept its old stone bridge long after the railway came through the valley. ";
const article = `<!doctype html><html lang="en-GB"><head><title>Stone Bridge | Valley News</title>
<meta name="author" content="Ada Byron"><meta property="og:site_name" content="Valley News">
<meta name="description" content="How a small town saved its bridge."></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a> Subscribe now</nav>
<article><h1>Stone Bridge</h1><p>${paragraph.repeat(6)}</p><p>Second part: ${paragraph.repeat(5)}&amp; more.</p></article>
<footer>Copyright Valley News</footer></body></html>`;

const site = await startTarget({
  "/article": { body: article },
  "/moved": { status: 301, headers: { location: "/article" } },
  "/down": { status: 503, body: "maintenance" },
  "/data.json": { headers: { "content-type": "application/json" }, body: "{}" },
  "/latin1": {
    headers: { "content-type": "text/html; charset=iso-8859-1" },
    body: Buffer.from("<html><body><p>Caf\u00e9 cr\u00e8me</p></body></html>", "latin1"),
  },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: site.port });
after(() => site.close());

test("extract: reads the article, its metadata and paragraphs", async () => {
  const out = await service.call(extractEndpoint, { url: site.url("/moved") });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.url, site.url("/article"));
  assert.equal(data.method, "readability");
  assert.equal(data.byline, "Ada Byron");
  assert.equal(data.siteName, "Valley News");
  assert.equal(data.lang, "en-GB");
  assert.equal(data.excerpt, "How a small town saved its bridge.");
  assert.doesNotMatch(data.text, /Subscribe now|Copyright/);
  assert.match(data.text, /\nSecond part: The river town/);
  assert.match(data.text, /& more\.$/);
  // 11 sentences of 16 words, "Second part:" and "more"; Readability drops the h1 that repeats the title.
  assert.equal(data.wordCount, 11 * 16 + 2 + 1);
  assert.equal(data.title, "Stone Bridge | Valley News");
  assert.equal(data.truncated, false);
});

test("extract: cuts long text at maxChars and says so", async () => {
  const out = await service.call(extractEndpoint, { url: site.url("/article"), maxChars: 100 });
  const data = dataOf(out);
  assert.ok(data.text.length <= 100, data.text);
  assert.ok(data.length > 900);
  assert.equal(data.truncated, true);
});

test("extract: decodes the charset the server declares", async () => {
  const out = await service.call(extractEndpoint, { url: site.url("/latin1") });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.match(dataOf(out).text, /Café crème/);
});

test("extract: a target answering 503 is a 502", async () => {
  const out = await service.call(extractEndpoint, { url: site.url("/down") });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).code, "target_error");
});

test("extract: a non-HTML answer is a 400", async () => {
  const out = await service.call(extractEndpoint, { url: site.url("/data.json") });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /not an HTML page/);
});

test("extract: bad input is a free 400 and fetches nothing", async () => {
  const before = site.hits.length;
  const res = await service.request(`/v1/extract?url=not-a-url`);
  await expectFree400(res, "url");
  assert.equal(site.hits.length, before);
});

test("extract: a private target is refused with a 400", async () => {
  const out = await service.call(extractEndpoint, { url: "http://10.0.0.1/" });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /10\.0\.0\.1/);
});
