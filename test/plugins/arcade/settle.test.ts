import { test } from "node:test";
import assert from "node:assert/strict";
import type { Fixture } from "../../helpers/fixtures.ts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { arcadeService, data, player } from "./_arcade.ts";

const at = (iso: string) => Date.parse(iso);
const fng = (limit: number, rows: [string, string][]): Fixture => ({
  source:
    "https://alternative.me/crypto/fear-and-greed-index/#api (GET /fng/?limit=&format=json: newest first, value and UNIX-second timestamp as strings)",
  request: { method: "GET", path: `/fng-api/fng/?limit=${limit}&format=json` },
  response: {
    status: 200,
    body: {
      name: "Fear and Greed Index",
      data: rows.map(([value, iso], i) => ({
        value,
        value_classification: Number(value) > 50 ? "Greed" : "Fear",
        timestamp: String(at(iso) / 1000),
        ...(i === 0 ? { time_until_update: "3600" } : {}),
      })),
      metadata: { error: null },
    },
  },
});
const funding = (settlesAt: string, prints: { fundingRate: string; fundingTime: number }[]): Fixture => ({
  source:
    "https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Get-Funding-Rate-History (oldest first)",
  request: {
    method: "GET",
    path: `/binance/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=${at(settlesAt)}&endTime=${at(settlesAt) + 3_600_000}&limit=1000`,
  },
  response: { status: 200, body: prints.map((p) => ({ symbol: "BTCUSDT", ...p, markPrice: "97012.40000000" })) },
});
const candle = (settlesAt: string, row: string[]): Fixture => ({
  source:
    "https://www.okx.com/docs-v5/en/#order-book-trading-market-data-get-candlesticks ([ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm], newest first)",
  request: { method: "GET", path: `/okx/market/candles?instId=BTC-USDT&bar=1m&after=${at(settlesAt)}&limit=1` },
  response: { status: 200, body: { code: "0", msg: "", data: [row] } },
});

const fixed = (at: () => Date) => ({ now: at, advance: () => {}, set: () => {} });

test("pending predictions settle from the real data after the clock moves, once their data is out", async (t) => {
  let clock = new Date("2026-11-22T23:59:30Z");
  const refs = await serveFixtures(t, [
    fng(1, [["40", "2026-11-22T00:00:00Z"]]),
    fng(3, [
      ["55", "2026-11-23T00:00:00Z"],
      ["40", "2026-11-22T00:00:00Z"],
      ["38", "2026-11-21T00:00:00Z"],
    ]),
    candle("2026-11-23T00:01:00Z", [
      String(at("2026-11-23T00:00:00Z")),
      "97000.1",
      "97010",
      "96900",
      "96950.5",
      "12.5",
      "12.5",
      "1212500",
      "1",
    ]),
    funding("2026-11-23T08:00:00Z", []),
    funding("2026-11-23T08:00:00Z", [{ fundingRate: "0.00010000", fundingTime: at("2026-11-23T08:00:00.004Z") }]),
  ]);
  const { service } = await arcadeService(t, [], {
    clock: fixed(() => clock),
    env: {
      UPSTREAM_ALTERNATIVE_ME_URL: `${refs.url}/fng-api`,
      UPSTREAM_BINANCE_FUTURES_URL: `${refs.url}/binance`,
      UPSTREAM_OKX_URL: `${refs.url}/okx`,
    },
  });
  const play = async (game: string, choice: string) =>
    data(await service.call("arcade/play", { game, choice, salt: `${game}-1`, player: player() }));

  const plays = {
    funding: await play("funding", "positive"),
    candle: await play("candle", "green"),
    feargreed: await play("feargreed", "greed"),
  };
  assert.deepEqual(
    Object.values(plays).map((p) => [p.status, p.won, p.fairness, p.awaiting.what]),
    [
      ["pending", null, null, "data"],
      ["pending", null, null, "data"],
      ["pending", null, null, "data"],
    ],
  );
  // Funding plays the print after next (00:00 is the next); the candle is the one that opens at 00:00, after the play.
  assert.deepEqual(
    Object.values(plays).map((p) => p.referee.settlesAt),
    ["2026-11-23T08:00:00.000Z", "2026-11-23T00:01:00.000Z", "2026-11-23T00:00:00.000Z"],
  );
  assert.deepEqual(
    Object.values(plays).map((p) => p.awaiting.deadline),
    ["2026-11-23T10:00:00.000Z", "2026-11-23T00:16:00.000Z", "2026-11-24T12:00:00.000Z"],
  );
  assert.deepEqual(plays.feargreed.referee.reference, { value: "40", at: "2026-11-22T00:00:00.000Z" });
  const me = async () => data(await service.call("arcade/me", { id: plays.funding.player.id }));
  const statusOf = async () =>
    Object.fromEntries((await me()).plays.map((p: any) => [p.game, [p.status, p.outcome, p.pointsAwarded]]));

  clock = new Date("2026-11-22T23:59:45Z");
  assert.equal(await service.jobs.run("arcade-settle"), true);
  assert.equal(refs.calls.length, 1, "nothing is due yet: only the play-time index read");

  clock = new Date("2026-11-23T00:01:30Z");
  await service.jobs.run("arcade-settle");
  assert.deepEqual(await statusOf(), {
    funding: ["pending", null, 0],
    candle: ["settled", "loss", 0],
    feargreed: ["settled", "win", 10],
  });
  const settled = (await me()).plays.find((p: any) => p.game === "candle");
  assert.deepEqual([settled.referee.observed, settled.awaiting], ["open 97000.1, close 96950.5", null]);

  clock = new Date("2026-11-23T08:00:30Z");
  await service.jobs.run("arcade-settle");
  assert.deepEqual((await statusOf()).funding, ["pending", null, 0], "the 08:00 print is not out yet");

  clock = new Date("2026-11-23T08:01:30Z");
  await service.jobs.run("arcade-settle");
  const final = await me();
  assert.deepEqual((await statusOf()).funding, ["settled", "win", 10]);
  assert.deepEqual([final.player.points, final.player.wins, final.player.plays], [20, 2, 3]);
  assert.equal(refs.calls.length, 5);

  clock = new Date("2026-11-23T08:02:30Z");
  await service.jobs.run("arcade-settle");
  assert.equal(refs.calls.length, 5, "settled plays are not read again");
});

test("two workers settling the same plays at once count each play exactly once", async (t) => {
  const store = createMemoryStore();
  let clock = new Date("2026-11-23T15:59:00Z");
  const refs = await serveFixtures(
    t,
    [funding("2026-11-24T00:00:00Z", [{ fundingRate: "-0.00002100", fundingTime: at("2026-11-24T00:00:00Z") }])],
    { reuse: true },
  );
  const env = { UPSTREAM_BINANCE_FUTURES_URL: `${refs.url}/binance` };
  const { service: a } = await arcadeService(t, [], { store, clock: fixed(() => clock), env });
  // The second instance's clock is one tick ahead, so both ticks run and overlap.
  const { service: b } = await arcadeService(t, [], {
    store,
    clock: fixed(() => new Date(clock.getTime() + 10_000)),
    env,
  });
  const ids = [];
  for (const [alias, choice] of [
    ["ada", "negative"],
    ["bob", "negative"],
    ["cy", "positive"],
  ]) {
    ids.push(
      data(await a.call("arcade/play", { game: "funding", choice, salt: "f", player: player(alias) })).player.id,
    );
  }
  clock = new Date("2026-11-24T00:00:05Z");
  assert.deepEqual(await Promise.all([a.jobs.run("arcade-settle"), b.jobs.run("arcade-settle")]), [true, true]);
  await Promise.all([a.jobs.run("arcade-settle"), b.jobs.run("arcade-settle")]);
  const players = await Promise.all(ids.map(async (id) => data(await b.call("arcade/me", { id }))));
  assert.deepEqual(
    players.map((p) => [p.player.points, p.player.plays, p.plays[0].status, p.plays[0].outcome]),
    [
      [10, 1, "settled", "win"],
      [10, 1, "settled", "win"],
      [0, 1, "settled", "loss"],
    ],
  );
  assert.deepEqual(await store.keys("arcade:pending:"), []);
});

test("funding judged by Hyperliquid when ARCADE_FUNDING_VENUE says so (Binance refuses US addresses): the play names it, its print settles it", async (t) => {
  let clock = new Date("2026-11-23T07:59:30Z");
  const settlesAt = at("2026-11-23T09:00:00Z");
  const refs = await serveFixtures(t, [
    {
      source:
        "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint/perpetuals#retrieve-historical-funding-rates (POST /info {type: fundingHistory, coin, startTime, endTime}: [{coin, fundingRate, premium, time}])",
      request: {
        method: "POST",
        path: "/hyperliquid/info",
        body: { type: "fundingHistory", coin: "BTC", startTime: settlesAt, endTime: settlesAt + 3_599_999 },
      },
      response: {
        status: 200,
        body: [{ coin: "BTC", fundingRate: "-0.0000071", premium: "-0.00055", time: settlesAt + 52 }],
      },
    },
  ]);
  const { service } = await arcadeService(t, [], {
    clock: fixed(() => clock),
    env: {
      ARCADE_FUNDING_VENUE: "hyperliquid",
      UPSTREAM_HYPERLIQUID_URL: `${refs.url}/hyperliquid`,
      UPSTREAM_BINANCE_FUTURES_URL: "http://127.0.0.1:9",
    },
  });
  const [up, down] = [
    data(await service.call("arcade/play", { game: "funding", choice: "positive", salt: "h", player: player("ada") })),
    data(await service.call("arcade/play", { game: "funding", choice: "negative", salt: "h", player: player("bob") })),
  ];
  assert.equal(up.referee.settlesAt, "2026-11-23T09:00:00.000Z");
  assert.match(up.referee.source, /^Hyperliquid BTC perpetual/);
  assert.equal(up.awaiting.deadline, "2026-11-23T11:00:00.000Z");
  clock = new Date("2026-11-23T09:00:05Z");
  await service.jobs.run("arcade-settle");
  const outcomes = await Promise.all(
    [up, down].map(async (p) => data(await service.call("arcade/me", { id: p.player.id })).plays[0]),
  );
  assert.deepEqual(
    outcomes.map((p) => [p.status, p.outcome, p.referee.observed]),
    [
      ["settled", "loss", "-0.0000071"],
      ["settled", "win", "-0.0000071"],
    ],
  );
  assert.equal(refs.calls.length, 1, "both plays share one read");
});

test("ARCADE_FUNDING_VENUE must name a known venue", async (t) => {
  await assert.rejects(
    arcadeService(t, [], { env: { ARCADE_FUNDING_VENUE: "kraken" } }),
    /ARCADE_FUNDING_VENUE must be one of binance-futures, hyperliquid/,
  );
});
