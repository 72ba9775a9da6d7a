import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import onThisDay from "../../../plugins/publicdata/on-this-day.ts";
import wikipediaEndpoint from "../../../plugins/publicdata/wikipedia.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_WIKIPEDIA_URL: url, UPSTREAM_WIKIPEDIA_API_URL: `${url}/w/api.php` },
  });

test("wikipedia: a summary by title", async (t) => {
  const api = await serveFixtures(t, ["wikipedia.summary-alan-turing"], { dir });
  const out = await (await serviceFor(api.url)).call(wikipediaEndpoint, { title: "Alan Turing" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.title, data.wikidataId, data.pageId, data.type, data.url],
    ["Alan Turing", "Q7251", 1208, "standard", "https://en.wikipedia.org/wiki/Alan_Turing"],
  );
  assert.match(data.extract, /^Alan Mathison Turing/);
  assert.equal(data.thumbnail!.width, 330);
  assert.match(data.licence, /CC BY-SA/);
});

test("wikipedia: a search finds the title, then its summary", async (t) => {
  const api = await serveFixtures(t, ["wikipedia-api.opensearch-turing", "wikipedia.summary-alan-turing"], { dir });
  const out = await (await serviceFor(api.url)).call(wikipediaEndpoint, { q: "turing enigma mathematician" });
  assert.equal(dataOf(out).title, "Alan Turing");
  assert.equal(api.calls.length, 2);
});

test("wikipedia: a missing article or an empty search is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://en.wikipedia.org/api/rest_v1/ (missing page: 404 problem JSON)",
      request: { method: "GET", path: "/page/summary/No_such_article_xq?redirect=true" },
      response: {
        status: 404,
        body: {
          type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found",
          title: "Not found.",
          method: "get",
          detail: "Page or revision not found.",
          uri: "/en.wikipedia.org/v1/page/summary/No_such_article_xq",
        },
      },
    },
    {
      source: "https://www.mediawiki.org/wiki/API:Opensearch (no match: empty lists)",
      request: { method: "GET", path: "/w/api.php?action=opensearch&search=xqzzy&limit=1&namespace=0&format=json" },
      response: { status: 200, body: ["xqzzy", [], [], []] },
    },
  ]);
  const service = await serviceFor(api.url);
  assert.equal((await service.call(wikipediaEndpoint, { title: "No such article xq" })).status, 404);
  assert.equal((await service.call(wikipediaEndpoint, { q: "xqzzy" })).status, 404);
});

test("wikipedia: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://en.wikipedia.org/api/rest_v1/",
        request: { method: "GET", path: "/page/summary/Alan_Turing?redirect=true" },
        response: { status: 503, body: "Service Unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(wikipediaEndpoint, { title: "Alan Turing" });
  assert.equal(out.status, 502);
});

test("wikipedia: both or neither of title and q is a 400; bad input is a free 400", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  assert.equal((await service.call(wikipediaEndpoint, {})).status, 400);
  assert.equal((await service.call(wikipediaEndpoint, { title: "A", q: "bb" })).status, 400);
  await expectFree400(await service.request(`/v1/wikipedia?title=${"a".repeat(256)}`), "title");
  await expectFree400(await service.request("/v1/wikipedia?q=a"), "q");
  assert.equal(api.calls.length, 0);
});

test("on-this-day: the editors' selection for a day, limited", async (t) => {
  const api = await serveFixtures(t, ["wikipedia.onthisday-selected-07-20"], { dir });
  const out = await (await serviceFor(api.url)).call(onThisDay, { month: 7, day: 20, limit: 1 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.count, 1);
  assert.equal(data.entries[0].year, 1969);
  assert.deepEqual(
    data.entries[0].pages.map((p: any) => p.title),
    ["Apollo program", "Apollo 11"],
  );
  assert.equal(data.entries[0].pages[1].url, "https://en.wikipedia.org/wiki/Apollo_11");
});

test("on-this-day: a day the month does not have is a 400 before any call", async (t) => {
  const api = await serveFixtures(t, []);
  const out = await (await serviceFor(api.url)).call(onThisDay, { month: 2, day: 30 });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "day");
  assert.equal(api.calls.length, 0);
});

test("on-this-day: a failing feed is a 502; bad input is a free 400", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://en.wikipedia.org/api/rest_v1/",
        request: { method: "GET", path: "/feed/onthisday/births/01/01" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const service = await serviceFor(api.url);
  assert.equal((await service.call(onThisDay, { month: 1, day: 1, type: "births" })).status, 502);
  const before = api.calls.length;
  await expectFree400(await service.request("/v1/on-this-day?month=13&day=1"), "month");
  await expectFree400(await service.request("/v1/on-this-day?type=weddings"), "type");
  assert.equal(api.calls.length, before);
});
