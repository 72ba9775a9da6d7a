import { test } from "node:test";
import assert from "node:assert/strict";
import { loadFixture, serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import betOdds from "../../../plugins/bet/odds.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["bet"], env: { UPSTREAM_AZURO_API_URL: `${url}/api/v1/public` } });

test("bet/odds: games with their open markets, aliases resolved, every field of the spec's Bet game", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.games-football", "azuro-api.conditions-two-games"], { dir });
  const out = await (await serviceFor(api.url)).call(betOdds, { sport: "soccer", limit: 2, marketsPerGame: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const body = out.body as any;
  assert.equal(body.meta.product, "bet");
  assert.match(body.meta.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const { games, ...head } = body.data;
  assert.deepEqual(head, {
    source: "azuro",
    environment: "PolygonUSDT",
    chain: 137,
    betToken: "USDT",
    betTokenAddress: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
    count: 2,
  });
  assert.deepEqual(games[0], {
    gameId: "1006000000000084793028",
    title: "Tottenham Hotspur - Leeds United",
    sport: { slug: "football", name: "Football" },
    league: "Premier League",
    country: "England",
    startsAt: "2026-05-11T19:00:00.000Z",
    participants: ["Tottenham Hotspur", "Leeds United"],
    markets: [
      {
        conditionId: "300610060000000000847930280000000000002435620690",
        title: "Market 300610060000000000847930280000000000002435620690",
        kind: "legacy-29",
        outcomes: [
          { outcomeId: "29", title: "Outcome 29", odds: 1.81 },
          { outcomeId: "30", title: "Outcome 30", odds: 3.78 },
          { outcomeId: "31", title: "Outcome 31", odds: 4.43 },
        ],
      },
      {
        conditionId: "300610060000000000847930280000000000002435620698",
        title: "Market 300610060000000000847930280000000000002435620698",
        kind: "legacy-147",
        outcomes: [
          { outcomeId: "147", title: "Outcome 147", odds: 1.05 },
          { outcomeId: "148", title: "Outcome 148", odds: 9.79 },
        ],
      },
    ],
  });
  assert.deepEqual(games[1].markets, [
    {
      conditionId: "500610060000000000812047130000000000000000003101",
      title: "Total Goals",
      kind: "market-18-2",
      outcomes: [
        { outcomeId: "6005", title: "Over (2.5)", odds: 2.08 },
        { outcomeId: "6006", title: "Under (2.5)", odds: 1.71 },
      ],
    },
  ]);
  assert.equal(games[1].startsAt, "2026-05-12T17:00:00.000Z");
});

test("bet/odds: an empty live list in the XDAI environment calls no conditions and is cached for 60 s", async (t) => {
  const api = await serveFixtures(t, ["azuro-api.games-live-empty"], { dir });
  const service = await serviceFor(api.url);
  const input: InputOf<typeof betOdds> = { gameState: "live", environment: "GnosisXDAI" };
  const first = await service.call(betOdds, input as InputOf<typeof betOdds>);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual(dataOf(first), {
    source: "azuro",
    environment: "GnosisXDAI",
    chain: 100,
    betToken: "WXDAI",
    betTokenAddress: "0xe91D153E0b41518A2Ce8Dd3D7944Fa863463a97d",
    count: 0,
    games: [],
  });
  const second = await service.call(betOdds, input as InputOf<typeof betOdds>);
  assert.equal((second.body as any).meta.cached, true);
  assert.equal(api.calls.length, 1);
});

test("bet/odds: a failing Azuro API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source:
          "https://github.com/Azuro-protocol/toolkit/blob/main/src/utils/feed/getGamesByFilters.ts (non-2xx throws)",
        request: {
          method: "GET",
          path: "/api/v1/public/market-manager/games-by-filters?environment=PolygonUSDT&gameState=Prematch&orderBy=startsAt&orderDirection=asc&page=1&perPage=10",
        },
        response: { status: 500, body: { message: "Internal server error" } },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(betOdds, {});
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).code, "upstream_error");
});

test("bet/odds: bad input is a free 400 naming the field and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  for (const [query, field] of [
    ["limit=26", "limit"],
    ["limit=0", "limit"],
    ["marketsPerGame=21", "marketsPerGame"],
    ["gameState=finished", "gameState"],
    ["environment=BaseWETH", "environment"],
    ["sport=Foot%20ball", "sport"],
  ]) {
    const res = await service.request(`/v1/bet/odds?${query}`);
    assert.equal(res.status, 400, query);
    const issues = ((await res.json()) as any).error.details.issues as { field: string }[];
    assert.ok(
      issues.some((i) => i.field === field),
      `${query}: ${JSON.stringify(issues)}`,
    );
  }
  assert.equal(api.calls.length, 0);
});

test("bet/odds: an outcome stopped or hidden on its own is left out of its market", async (t) => {
  const conditions = await loadFixture("azuro-api.conditions-two-games", dir);
  const body = structuredClone(conditions.response.body) as any;
  const market = body.conditions.find((c: any) => c.conditionId === "300610060000000000847930280000000000002435620690");
  Object.assign(
    market.outcomes.find((o: any) => o.outcomeId === "30"),
    { hidden: true },
  );
  Object.assign(
    market.outcomes.find((o: any) => o.outcomeId === "31"),
    { state: "Stopped" },
  );
  const api = await serveFixtures(
    t,
    [
      "azuro-api.games-football",
      {
        ...conditions,
        source: `${conditions.source}; outcomes 30 hidden and 31 Stopped (outcome-level state and hidden)`,
        response: { ...conditions.response, body },
      },
    ],
    { dir },
  );
  const out = await (await serviceFor(api.url)).call(betOdds, { sport: "soccer", limit: 2, marketsPerGame: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const shown = dataOf(out).games[0].markets.find(
    (m: any) => m.conditionId === "300610060000000000847930280000000000002435620690",
  );
  assert.deepEqual(
    shown!.outcomes.map((o: any) => o.outcomeId),
    ["29"],
  );
});
