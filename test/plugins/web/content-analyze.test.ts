import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, issuesOf } from "../../helpers/expect.ts";
import contentAnalyze from "../../../plugins/web/content-analyze.ts";

const sentence = "Gardens need water and light to grow healthy plants. ";
const page = `<html lang="en"><head><title>Garden Guide</title></head><body>
<nav><a href="/">Home</a><a href="https://www.other.example/">Partner</a></nav>
<article><h1>Garden Guide</h1><p>${sentence.repeat(10)}</p><h2>Watering</h2><p>${sentence.repeat(10)}</p>
<h3>Morning</h3><p>Water early. <a href="http://blog.127.0.0.1.example/x">elsewhere</a> <a href="/tips">Tips</a> <a href="mailto:a@b.c">mail</a></p></article>
</body></html>`;

const site = await startTarget({ "/guide": { body: page }, "/down": { status: 502 } });
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: site.port });
after(() => site.close());

test("content-analyze: a page's words, outline, links, keywords and reading time", async () => {
  const out = await service.call(contentAnalyze, { url: site.url("/guide"), keywords: 3 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.source, "url");
  assert.deepEqual(data.headings, [
    { level: 1, text: "Garden Guide" },
    { level: 2, text: "Watering" },
    { level: 3, text: "Morning" },
  ]);
  assert.deepEqual(data.links, { total: 4, internal: 2, external: 2 });
  assert.ok(data.words >= 20 * 9 + 2, String(data.words));
  assert.equal(data.readingTimeMinutes, Math.ceil(data.words / 238));
  const density = (count: number) => Math.round((count / data.words) * 10000) / 100;
  assert.deepEqual(data.keywords.slice(0, 2), [
    { word: "water", count: 21, density: density(21) },
    { word: "gardens", count: 20, density: density(20) },
  ]);
});

test("content-analyze: text with Markdown headings and a URL", async () => {
  const out = await service.call(contentAnalyze, {
    text: "# Title\nOne short line. Another line here!\nhttps://example.org/page",
    keywords: 5,
  });
  const data = dataOf(out);
  assert.equal(data.source, "text");
  assert.equal(data.title, "Title");
  assert.equal(data.words, 1 + 3 + 3);
  assert.equal(data.sentences, 3);
  assert.deepEqual(data.links, { total: 1, internal: 0, external: 1 });
  assert.deepEqual(
    data.keywords.map((k: any) => k.word),
    ["line", "another", "short", "title"],
  );
  // 7 words in 3 sentences with 10 syllables: ti-tle, an-oth-er, and one each for the rest.
  assert.equal(data.readability.averageSyllablesPerWord, Math.round((10 / 7) * 100) / 100);
  assert.equal(
    data.readability.fleschReadingEase,
    Math.round((206.835 - 1.015 * (7 / 3) - 84.6 * (10 / 7)) * 100) / 100,
  );
});

test("content-analyze: both url and text, or neither, is a 400 before anything is fetched", async () => {
  const before = site.hits.length;
  const both = await service.call(contentAnalyze, { url: site.url("/guide"), text: "x" });
  assert.equal(both.status, 400);
  assert.equal(issuesOf(both)[0].message, "give exactly one of url or text");
  const neither = await service.call(contentAnalyze, {});
  assert.equal(neither.status, 400);
  const res = await service.request(`/v1/content-analyze?text=hi&keywords=99`);
  assert.equal(res.status, 400);
  assert.equal(site.hits.length, before);
});

test("content-analyze: a failing target is a 502", async () => {
  const out = await service.call(contentAnalyze, { url: site.url("/down") });
  assert.equal(out.status, 502);
});

test("content-analyze: a private target is refused with a 400", async () => {
  const out = await service.call(contentAnalyze, { url: "http://192.168.1.1/" });
  assert.equal(out.status, 400);
});
