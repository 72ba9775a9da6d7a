import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import newsWeb from "../../../plugins/publicdata/news-web.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["publicdata"], env: { UPSTREAM_GDELT_URL: url } });
const gdelt = (query: string, body: string) => ({
  source:
    "https://blog.gdeltproject.org/gdelt-doc-2-0-api-debuts/ (no match: {}; a refused query: a plain-text reason)",
  request: {
    method: "GET",
    path: `/doc/doc?query=${encodeURIComponent(query)}&mode=artlist&format=json&maxrecords=25&timespan=24h&sort=datedesc`,
  },
  response: { status: 200, body },
});

test("news-web: articles matching a query, newest first, in our shape", async (t) => {
  const api = await serveFixtures(t, ["gdelt.heat-pump"], { dir });
  const out = await (await serviceFor(api.url)).call(newsWeb, {
    q: '"heat pump" subsidy',
    timespan: "7d",
    limit: 1,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out).articles[0], {
    title: "Government extends heat pump subsidy to 2028",
    url: "https://www.example-news.co.uk/2025/01/15/heat-pump-subsidy-extended",
    domain: "example-news.co.uk",
    seen: "2025-01-15T12:30:00Z",
    language: "English",
    sourceCountry: "United Kingdom",
    image: "https://www.example-news.co.uk/images/heat-pump.jpg",
  });
});

test("news-web: a language filter goes into the query; no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [gdelt("xqzzy plonk sourcelang:spanish", "{}")]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call(newsWeb, { q: "xqzzy plonk", language: "spanish" })), {
    count: 0,
    articles: [],
  });
});

test("news-web: a query GDELT refuses is a 400 with its reason", async (t) => {
  const api = await serveFixtures(t, [gdelt("the", "The specified phrase is too short.")]);
  const out = await (await serviceFor(api.url)).call(newsWeb, { q: "the" });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /too short/);
});

test("news-web: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [{ ...gdelt("solar power", ""), response: { status: 500, body: "error" } }], {
    reuse: true,
  });
  const out = await (await serviceFor(api.url)).call(newsWeb, { q: "solar power" });
  assert.equal(out.status, 502);
});

test("news-web: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/news-web"), "q");
  await expectFree400(await service.request("/v1/news-web?q=solar&timespan=2y"), "timespan");
  await expectFree400(await service.request("/v1/news-web?q=solar&language=EN!"), "language");
  assert.equal(api.calls.length, 0);
});
