import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { rollDice, seedOf, verifyFairness } from "../../../plugins/arcade/_fair.js";
import { arcadeService, BLOCK_HASH, data, marketsFixture, player, saltsWhere } from "./_arcade.ts";

const diceSum = async (seed: string) => (await rollDice(seed)).reduce((a, b) => a + b);

test("dice: the sum decides over, under and seven; the fairness record recomputes from block hash and salt", async (t) => {
  const { service } = await arcadeService(t);
  const [overWin] = await saltsWhere(async (s) => (await diceSum(s)) >= 8, 1, "over");
  const [sevenLoss] = await saltsWhere(async (s) => (await diceSum(s)) !== 7, 1, "seven");
  const [underWin] = await saltsWhere(async (s) => (await diceSum(s)) <= 6, 1, "under");

  const won = data(await service.call("arcade/play", { game: "dice", choice: "over", salt: overWin, player: player() }));
  assert.equal(won.status, "settled");
  assert.equal(won.won, true);
  assert.equal(won.sum, won.dice[0] + won.dice[1]);
  assert.ok(won.sum >= 8);
  assert.equal(won.pointsAwarded, 10);
  assert.equal(won.player.id, createHash("sha256").update("ada|correct horse battery").digest("hex"));
  assert.equal(won.fairness.blockHash, BLOCK_HASH);
  assert.equal(won.fairness.blockNumber, 1234);
  assert.equal(won.fairness.network, "eip155:84532");
  assert.equal(won.fairness.seedHex, createHash("sha256").update(`${BLOCK_HASH}:${overWin}`).digest("hex"));
  assert.deepEqual(won.fairness.derived.dice, won.dice);
  assert.equal((await verifyFairness(won.fairness)).ok, true);
  assert.equal((await verifyFairness({ ...won.fairness, derived: { dice: [won.dice[0], (won.dice[1] % 6) + 1] } })).ok, false);
  assert.equal((await verifyFairness({ ...won.fairness, salt: `${overWin}x` })).ok, false);

  const lost = data(await service.call("arcade/play", { game: "dice", choice: "seven", salt: sevenLoss, player: player() }));
  assert.deepEqual([lost.won, lost.outcome, lost.pointsAwarded, lost.streakActive], [false, "loss", 0, 0]);
  const under = data(await service.call("arcade/play", { game: "dice", choice: "under", salt: underWin, player: player() }));
  assert.deepEqual([under.won, under.pointsAwarded, under.player.points, under.player.plays, under.player.wins], [true, 10, 20, 3, 2]);
});

test("points: 10 a win, doubled from a streak of 3, a loss ends the streak; the best streak stays", async (t) => {
  const { service } = await arcadeService(t);
  const wins = await saltsWhere(async (s) => (await diceSum(s)) >= 8, 5, "w");
  const [loss] = await saltsWhere(async (s) => (await diceSum(s)) < 8, 1, "l");
  const awarded = [];
  for (const salt of [...wins.slice(0, 4), loss, wins[4]]) {
    const out = data(await service.call("arcade/play", { game: "dice", choice: "over", salt, player: player() }));
    awarded.push([out.pointsAwarded, out.streakActive]);
  }
  assert.deepEqual(awarded, [[10, 1], [10, 2], [20, 3], [20, 4], [0, 0], [10, 1]]);
  const me = data(await service.call("arcade/me", { id: createHash("sha256").update("ada|correct horse battery").digest("hex") }));
  assert.deepEqual(
    [me.player.points, me.player.weekPoints, me.player.streak, me.player.bestStreak, me.player.wins, me.player.plays],
    [70, 70, 1, 4, 5, 6],
  );
  assert.equal(me.plays.length, 6);
  assert.equal(me.plays[0].pointsAwarded, 10);
});

test("concurrent plays of one player neither lose nor double points", async (t) => {
  const { service } = await arcadeService(t);
  const salts = await saltsWhere(() => true, 24, "c");
  const results = await Promise.all(salts.map((salt) => service.call("arcade/play", { game: "dice", choice: "over", salt, player: player("bob") })));
  assert.ok(results.every((r) => r.status === 200), JSON.stringify(results.find((r) => r.status !== 200)?.body));
  const awarded = results.map((r) => data(r).pointsAwarded).reduce((a, b) => a + b);
  const wins = results.filter((r) => data(r).won).length;
  const me = data(await service.call("arcade/me", { id: data(results[0]).player.id }));
  assert.equal(me.player.plays, 24);
  assert.equal(me.player.wins, wins);
  assert.equal(me.player.points, awarded);
  assert.ok(awarded >= wins * 10 && awarded <= wins * 20);
});

test("a salt plays once per block: the replay is a 409, not a second result", async (t) => {
  const { service } = await arcadeService(t);
  const body = { game: "dice", choice: "over", salt: "once", player: player() };
  assert.equal((await service.call("arcade/play", body)).status, 200);
  const again = await service.call("arcade/play", body);
  assert.equal(again.status, 409);
  assert.equal((again.body as any).error.code, "salt_reused");
});

test("higherlower: the seed picks the pair, real market caps decide", async (t) => {
  const [higher, lower] = await saltsWhere(() => true, 2, "hl");
  const { service } = await arcadeService(t, [await marketsFixture(higher, [5e9, 9e9]), await marketsFixture(lower, [5e9, 9e9])]);
  const win = data(await service.call("arcade/play", { game: "higherlower", choice: "higher", salt: higher, player: player() }));
  assert.deepEqual([win.outcome, win.shown.marketCapUsd, win.hidden.marketCapUsd], ["win", 5e9, 9e9]);
  assert.deepEqual(win.fairness.derived, { shown: win.shown.id, hidden: win.hidden.id });
  assert.notEqual(win.shown.id, win.hidden.id);
  assert.equal((await verifyFairness(win.fairness)).ok, true);
  const loss = data(await service.call("arcade/play", { game: "higherlower", choice: "lower", salt: lower, player: player() }));
  assert.equal(loss.outcome, "loss");
});

test("a failing chain or CoinGecko is a 502, nothing counted and the salt free again", async (t) => {
  const [salt] = await saltsWhere(() => true, 1, "fail");
  const failing = { ...(await marketsFixture(salt, [1, 2])), response: { status: 500, body: { error: "internal" } } };
  const { service, api } = await arcadeService(t, [failing]);
  const out = await service.call("arcade/play", { game: "higherlower", choice: "higher", salt, player: player() });
  assert.equal(out.status, 502);
  const id = createHash("sha256").update("ada|correct horse battery").digest("hex");
  assert.equal(data(await service.call("arcade/me", { id })).player.plays, 0);
  assert.equal((await service.call("arcade/play", { game: "dice", choice: "over", salt, player: player() })).status, 200);
  assert.ok(api.calls.some((c) => c.path.startsWith("/coingecko")));
});

test("the payment chain failing is a 502 before any draw", async (t) => {
  const { serveFixtures } = await import("../../helpers/fixtures.ts");
  const { startTestService } = await import("../../helpers/service.ts");
  const broken = (method: string) => ({
    source: "https://www.jsonrpc.org/specification#error_object",
    request: { method: "POST", path: "/chain", body: { jsonrpc: "2.0", id: 1, method, params: method === "eth_chainId" ? [] : ["latest", false] } },
    response: { status: 200, body: { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } } },
  });
  const api = await serveFixtures(t, [broken("eth_getBlockByNumber"), broken("eth_chainId")], { reuse: true });
  const service = await startTestService({ plugins: ["arcade"], env: { UPSTREAM_PAYMENT_CHAIN_URL: `${api.url}/chain` } });
  const out = await service.call("arcade/play", { game: "dice", choice: "over", salt: "x", player: player() });
  assert.equal(out.status, 502);
  assert.match((out.body as any).error.message, /failed: Internal error/);
});

test("bad input is a 400 naming the field, never charged, and calls nothing", async (t) => {
  const { service, api } = await arcadeService(t);
  // Per-field limits fail in the schema, before any payment is asked for.
  const beforePayment: [unknown, string][] = [
    [{ game: "poker", choice: "over", salt: "s", player: player() }, "game"],
    [{ game: "dice", choice: "sideways", salt: "s", player: player() }, "choice"],
    [{ game: "dice", choice: "over", salt: "", player: player() }, "salt"],
    [{ game: "dice", choice: "over", salt: "s", player: { alias: "ada", secret: "short" } }, "player.secret"],
    [{ game: "dice", choice: "over", salt: "s", player: { alias: "<b>", secret: "long enough" } }, "player.alias"],
    [{ game: "blackjack", action: "hit", playId: "not-a-uuid", salt: "s", player: player() }, "playId"],
  ];
  for (const [body, field] of beforePayment) {
    const res = await service.request("/v1/arcade/play", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    assert.equal(res.status, 400, JSON.stringify(body));
    const error = (await res.json()).error;
    assert.ok(error.details.issues.some((i: any) => i.field === field), `${field}: ${JSON.stringify(error)}`);
  }
  // Which choice fits which game is checked by the handler: a 400 that releases the payment unsettled.
  const perGame: [unknown, string][] = [
    [{ game: "dice", salt: "s", player: player() }, "choice"],
    [{ game: "dice", choice: "green", salt: "s", player: player() }, "choice"],
    [{ game: "blackjack", salt: "s", player: player() }, "action"],
    [{ game: "blackjack", action: "hit", salt: "s", player: player() }, "playId"],
  ];
  for (const [body, field] of perGame) {
    const out = await service.call("arcade/play", body);
    assert.equal(out.status, 400, JSON.stringify(body));
    assert.deepEqual((out.body as any).error.details.issues.map((i: any) => i.field), [field]);
  }
  assert.deepEqual(api.calls, []);
});

test("unpaid, the play is a 402; the web route is free but limited per visitor with Retry-After", async (t) => {
  const { service } = await arcadeService(t, [], { env: { ARCADE_WEB_PLAYS_PER_HOUR: "3" } });
  const paid = await service.request("/v1/arcade/play", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game: "dice", choice: "over", salt: "p", player: player() }) });
  assert.equal(paid.status, 402);
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    const res = await service.request("/arcade/api/play", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game: "dice", choice: "over", salt: `web-${i}`, player: player() }) });
    statuses.push(res.status);
    if (res.status === 429) assert.ok(Number(res.headers.get("retry-after")) > 0);
  }
  assert.deepEqual(statuses, [200, 200, 200, 429]);
});

test("the seed is SHA-256 over the block hash, a colon and the salt", async () => {
  assert.equal(await seedOf("0xab", "salt"), createHash("sha256").update("0xab:salt").digest("hex"));
});
