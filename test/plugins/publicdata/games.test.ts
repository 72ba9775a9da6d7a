import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import games from "../../../plugins/publicdata/games.ts";
import gamesEndpoint from "../../../plugins/publicdata/games.ts";

const dir = new URL("./fixtures/", import.meta.url);
const docs = "https://apidocs.cheapshark.com/";
const serviceFor = (url: string) =>
  startTestService({ plugins: ["publicdata"], env: { UPSTREAM_CHEAPSHARK_URL: url } });

test("games: titles with their cheapest price, deal link and Steam app", async (t) => {
  const api = await serveFixtures(t, ["cheapshark.elden-ring"], { dir });
  const out = await (await serviceFor(api.url)).call(gamesEndpoint, games.example.input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), games.example.output);
});

test("games: no match is an empty list, and exact is passed on", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (List of Games: no match is [])`,
      request: { method: "GET", path: "/games?title=xqzzy&limit=10&exact=1" },
      response: { status: 200, body: [] },
    },
  ]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call(gamesEndpoint, { q: "xqzzy", exact: true })), {
    count: 0,
    games: [],
  });
  assert.equal(api.calls.length, 1);
});

test("games: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: docs,
        request: { method: "GET", path: "/games?title=portal&limit=10&exact=0" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(gamesEndpoint, { q: "portal" });
  assert.equal(out.status, 502);
});

test("games: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/games"), "q");
  await expectFree400(await service.request("/v1/games?q=portal&limit=61"), "limit");
  await expectFree400(await service.request("/v1/games?q=portal&exact=maybe"), "exact");
  assert.equal(api.calls.length, 0);
});
