import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import tvEndpoint from "../../../plugins/publicdata/tv.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["publicdata"], env: { UPSTREAM_TVMAZE_URL: url } });

test("tv: shows matching a name, summaries as plain text, web channels as networks", async (t) => {
  const api = await serveFixtures(t, ["tvmaze.breaking-bad"], { dir });
  const out = await (await serviceFor(api.url)).call(tvEndpoint, { q: "breaking bad" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [show, fan] = dataOf(out).shows;
  assert.deepEqual(
    [show.id, show.network, show.country, show.imdbId, show.rating],
    [169, "AMC", "US", "tt0903747", 9.2],
  );
  assert.equal(
    show.summary,
    "Breaking Bad follows protagonist Walter White, a chemistry teacher who lives in New Mexico with his wife and teenage son who has cerebral palsy.",
  );
  assert.deepEqual(
    [fan.network, fan.country, fan.runtimeMinutes, fan.summary, fan.image],
    ["YouTube", null, 11, null, null],
  );
});

test("tv: no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://www.tvmaze.com/api#show-search (no match: [])",
      request: { method: "GET", path: "/search/shows?q=xqzzy" },
      response: { status: 200, body: [] },
    },
  ]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call(tvEndpoint, { q: "xqzzy" })), {
    count: 0,
    shows: [],
  });
});

test("tv: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://www.tvmaze.com/api",
        request: { method: "GET", path: "/search/shows?q=lost" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(tvEndpoint, { q: "lost" });
  assert.equal(out.status, 502);
});

test("tv: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/tv"), "q");
  await expectFree400(await service.request("/v1/tv?q=lost&limit=11"), "limit");
  assert.equal(api.calls.length, 0);
});
