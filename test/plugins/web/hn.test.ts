import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, issuesOf } from "../../helpers/expect.ts";
import hnEndpoint from "../../../plugins/web/hn.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["web"], env: { UPSTREAM_HN_ALGOLIA_URL: `${url}/api/v1` } });
const empty = (path: string): Fixture => ({
  source: "https://hn.algolia.com/api (search answer with no hits)",
  request: { method: "GET", path },
  response: {
    status: 200,
    body: {
      hits: [],
      nbHits: 0,
      page: 0,
      nbPages: 0,
      hitsPerPage: 5,
      exhaustiveNbHits: true,
      query: "",
      params: "",
      processingTimeMS: 1,
    },
  },
});

test("hn: the front page as stories with HN links; text posts have no url", async (t) => {
  const algolia = await serveFixtures(t, ["hn-algolia.front-page"], { dir });
  const out = await (await serviceFor(algolia.url)).call(hnEndpoint, { limit: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.mode, "top");
  assert.equal(data.total, 30);
  assert.deepEqual(data.stories, [
    {
      id: 8863,
      title: "My YC app: Dropbox - Throw away your USB drive",
      url: "http://www.getdropbox.com/u/2/screencast.html",
      hnUrl: "https://news.ycombinator.com/item?id=8863",
      points: 104,
      comments: 71,
      author: "pg",
      createdAt: "2007-04-04T19:16:40Z",
    },
    {
      id: 121003,
      title: "Ask HN: The Arc Effect",
      url: null,
      hnUrl: "https://news.ycombinator.com/item?id=121003",
      points: 25,
      comments: 12,
      author: "tptacek",
      createdAt: "2008-02-19T20:04:56Z",
    },
  ]);
});

test("hn: new, best and search ask Algolia the right questions", async (t) => {
  const since = Math.floor(Date.now() / 3_600_000) * 3600 - 7 * 86_400;
  const algolia = await serveFixtures(t, [
    empty("/api/v1/search_by_date?tags=story&hitsPerPage=5"),
    empty(`/api/v1/search?tags=story&numericFilters=${encodeURIComponent(`created_at_i>${since}`)}&hitsPerPage=5`),
    empty("/api/v1/search?query=rust+async&tags=story&hitsPerPage=5"),
  ]);
  const service = await serviceFor(algolia.url);
  for (const input of [{ mode: "new" }, { mode: "best" }, { mode: "search", query: "rust async" }]) {
    const out = await service.call(hnEndpoint, { ...input, limit: 5 } as InputOf<typeof hnEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out).stories, []);
  }
  assert.equal(algolia.calls.length, 3);
});

test("hn: a failing Algolia is a 502", async (t) => {
  const algolia = await serveFixtures(
    t,
    [
      {
        source: "https://hn.algolia.com/api",
        request: { method: "GET", path: "/api/v1/search?tags=front_page&hitsPerPage=20" },
        response: { status: 500, body: { message: "Internal error", status: 500 } },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(algolia.url)).call(hnEndpoint, {});
  assert.equal(out.status, 502);
});

test("hn: search without a query, or a bad mode, is a 400 and calls nothing", async (t) => {
  const algolia = await serveFixtures(t, []);
  const service = await serviceFor(algolia.url);
  const out = await service.call(hnEndpoint, { mode: "search" });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "query");
  assert.equal((await service.request("/v1/hn?mode=ask")).status, 400);
  assert.equal((await service.request("/v1/hn?limit=500")).status, 400);
  assert.equal(algolia.calls.length, 0);
});
