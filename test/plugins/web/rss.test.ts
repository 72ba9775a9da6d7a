import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import rssEndpoint from "../../../plugins/web/rss.ts";

const rss2sample = await readFile(new URL("./fixtures/rss2sample.xml", import.meta.url));
const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="text">Example Feed</title>
  <subtitle>Notes &amp; news</subtitle>
  <link href="/feed.atom" rel="self"/><link href="http://example.org/"/>
  <entry>
    <title>Atom-Powered Robots Run Amok</title>
    <link rel="alternate" href="/2003/12/13/atom03"/><link rel="edit" href="/edit/1"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <updated>2003-12-13T18:30:02Z</updated><published>2003-12-13T08:29:29-04:00</published>
    <author><name>John Doe</name></author>
    <content type="html">&lt;p&gt;Some &lt;b&gt;text&lt;/b&gt;.&lt;/p&gt;</content>
  </entry>
</feed>`;
const jsonFeed = JSON.stringify({
  version: "https://jsonfeed.org/version/1.1",
  title: "JSON Notes",
  home_page_url: "https://example.org/",
  items: [
    {
      id: 1,
      url: "https://example.org/1",
      title: "First",
      content_text: "Hello",
      date_published: "2024-05-01T10:00:00+02:00",
      authors: [{ name: "Ann" }],
    },
  ],
});

const site = await startTarget({
  "/rss": { headers: { "content-type": "application/rss+xml" }, body: rss2sample },
  "/feed.atom": { headers: { "content-type": "application/atom+xml" }, body: atom },
  "/feed.json": { headers: { "content-type": "application/feed+json" }, body: jsonFeed },
  "/blog": {
    body: `<html><head><link rel="alternate" type="application/atom+xml" href="/feed.atom"></head><body>Blog</body></html>`,
  },
  "/plain": { body: "<html><body>No feed here</body></html>" },
  "/broken": { status: 500, body: "oops" },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: site.port });
after(() => site.close());

test("rss: RSS 2.0 items with ISO dates and plain-text summaries", async () => {
  const out = await service.call(rssEndpoint, { url: site.url("/rss"), limit: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.format, "rss");
  assert.equal(data.title, "Liftoff News");
  assert.equal(data.itemCount, 4);
  assert.equal(data.items.length, 2);
  assert.deepEqual(data.items[0], {
    title: "Star City",
    link: "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp",
    date: "2003-06-03T09:39:21.000Z",
    summary:
      "How do Americans get ready to work with Russians aboard the International Space Station? They take a crash course in culture, language and protocol at Russia's Star City.",
    author: null,
    id: "http://liftoff.msfc.nasa.gov/2003/06/03.html#item573",
  });
  assert.equal(data.items[1].title, null);
  assert.equal(data.items[1].date, "2003-05-30T11:06:42.000Z");
});

test("rss: a page's alternate Atom feed is followed, links resolved against the feed", async () => {
  const out = await service.call(rssEndpoint, { url: site.url("/blog") });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.url, site.url("/feed.atom"));
  assert.equal(data.format, "atom");
  assert.equal(data.title, "Example Feed");
  assert.equal(data.description, "Notes & news");
  assert.equal(data.link, "http://example.org/");
  assert.deepEqual(data.items[0], {
    title: "Atom-Powered Robots Run Amok",
    link: site.url("/2003/12/13/atom03"),
    date: "2003-12-13T12:29:29.000Z",
    summary: "Some text.",
    author: "John Doe",
    id: "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
  });
});

test("rss: JSON Feed", async () => {
  const data = dataOf(await service.call(rssEndpoint, { url: site.url("/feed.json") }));
  assert.equal(data.format, "json");
  assert.deepEqual(data.items[0], {
    title: "First",
    link: "https://example.org/1",
    date: "2024-05-01T08:00:00.000Z",
    summary: "Hello",
    author: "Ann",
    id: "1",
  });
});

test("rss: a page without a feed is a 400", async () => {
  const out = await service.call(rssEndpoint, { url: site.url("/plain") });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /not a feed/);
});

test("rss: a failing target is a 502", async () => {
  const out = await service.call(rssEndpoint, { url: site.url("/broken") });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).code, "target_error");
});

test("rss: bad input is a free 400 and fetches nothing", async () => {
  const before = site.hits.length;
  const res = await service.request(`/v1/rss?url=${encodeURIComponent(site.url("/rss"))}&limit=101`);
  await expectFree400(res, "limit");
  assert.equal(site.hits.length, before);
});

test("rss: a private target is refused with a 400", async () => {
  const out = await service.call(rssEndpoint, { url: "http://10.0.0.1/feed.xml" });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /10\.0\.0\.1/);
});
