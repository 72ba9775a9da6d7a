import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import sportsEndpoint from "../../../plugins/publicdata/sports.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["publicdata"], env: { UPSTREAM_ESPN_URL: url } });

test("sports: a league's games on a day, with teams, scores and status", async (t) => {
  const api = await serveFixtures(t, ["espn.nfl-2025-02-09"], { dir });
  const out = await (await serviceFor(api.url)).call(sportsEndpoint, { league: "nfl", date: "2025-02-09" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [game] = dataOf(out).games;
  assert.deepEqual(game.home, { team: "Philadelphia Eagles", abbreviation: "PHI", score: "40", winner: true });
  assert.deepEqual(game.away, { team: "Kansas City Chiefs", abbreviation: "KC", score: "22", winner: false });
  assert.deepEqual([game.status.state, game.venue, game.start], ["post", "Caesars Superdome", "2025-02-09T23:30Z"]);
  assert.match(game.url!, /gameId\/401671889/);
});

test("sports: a day without games is an empty list; no date asks for the current board", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://gist.github.com/akeaswaran/b48b02f1c94f873c6655e7129910fc3b (no games: events is empty)",
      request: { method: "GET", path: "/soccer/eng.1/scoreboard?dates=20250101" },
      response: { status: 200, body: { leagues: [], events: [] } },
    },
    {
      source: "https://gist.github.com/akeaswaran/b48b02f1c94f873c6655e7129910fc3b (no dates: the current scoreboard)",
      request: { method: "GET", path: "/hockey/nhl/scoreboard" },
      response: { status: 200, body: { leagues: [], events: [] } },
    },
  ]);
  const service = await serviceFor(api.url);
  assert.deepEqual(dataOf(await service.call(sportsEndpoint, { league: "premier-league", date: "2025-01-01" })), {
    league: "premier-league",
    date: "2025-01-01",
    count: 0,
    games: [],
  });
  assert.equal(dataOf(await service.call(sportsEndpoint, { league: "nhl" })).date, null);
});

test("sports: a failing feed is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://gist.github.com/akeaswaran/b48b02f1c94f873c6655e7129910fc3b",
        request: { method: "GET", path: "/basketball/nba/scoreboard" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(sportsEndpoint, { league: "nba" });
  assert.equal(out.status, 502);
});

test("sports: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/sports"), "league");
  await expectFree400(await service.request("/v1/sports?league=cricket"), "league");
  await expectFree400(await service.request("/v1/sports?league=nfl&date=20250209"), "date");
  assert.equal(api.calls.length, 0);
});
