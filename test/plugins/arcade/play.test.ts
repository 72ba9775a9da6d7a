import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { diceOutcome, rollDice, seedOf, verifyFairness } from "../../../plugins/arcade/_fair.js";
import { playerIdOf } from "../../../plugins/arcade/_points.ts";
import { blockHashOf, fakeChain, testClock } from "./_chain.ts";
import { arcadeService, data, drawOn, marketsFixture, player, saltsWhere } from "./_arcade.ts";

const ada = playerIdOf("ada", "correct horse battery");

test("dice: the answer only accepts the play; the first block mined after the acceptance is recorded decides it", async (t) => {
  const a = await arcadeService(t);
  const head = a.chain.head().number;
  const answer = data(
    await a.service.call("arcade/play", { game: "dice", choice: "over", salt: "s-1", player: player() }),
  );
  assert.deepEqual(
    [
      answer.status,
      answer.outcome,
      answer.fairness,
      answer.awaiting.what,
      answer.awaiting.stage,
      answer.awaiting.decidingBlock,
    ],
    ["pending", null, null, "block", "roll", null],
  );
  const me = async () => data(await a.service.call("arcade/me", { id: ada }));

  const recorded = (await me()).plays;
  assert.equal(recorded.length, 1);
  assert.deepEqual(
    [recorded[0].status, recorded[0].awaiting.decidingBlock],
    ["pending", head + 1],
    "the acceptance names the chain's next block",
  );
  await a.draw();
  assert.equal((await me()).plays[0].status, "pending", "no block, no draw");

  const block = await a.mineAndDraw();
  const [settled] = (await me()).plays;
  const seedHex = createHash("sha256").update(`${block.hash}:s-1`).digest("hex");
  const dice = await rollDice(seedHex);
  assert.deepEqual(
    [settled.status, settled.dice, settled.sum, settled.outcome],
    ["settled", dice, dice[0] + dice[1], diceOutcome("over", dice)],
  );
  assert.deepEqual(
    [settled.fairness.blockNumber, settled.fairness.blockHash, settled.fairness.seedHex, settled.fairness.network],
    [head + 1, block.hash, seedHex, "eip155:84532"],
  );
  assert.deepEqual(
    settled.fairness.stages.map((s: any) => [s.action, s.blockNumber, s.drawn]),
    [["roll", head + 1, dice]],
  );
  assert.deepEqual([settled.player.plays, settled.pointsAwarded], [1, settled.outcome === "win" ? 10 : 0]);
  assert.equal(settled.awaiting, null);
  assert.equal((await verifyFairness(settled.fairness)).ok, true);
  const stage = settled.fairness.stages[0];
  assert.equal(
    (await verifyFairness({ ...settled.fairness, stages: [{ ...stage, drawn: [dice[0], (dice[1] % 6) + 1] }] })).ok,
    false,
  );
  assert.equal((await verifyFairness({ ...settled.fairness, salt: "s-1x" })).ok, false);
  assert.equal(
    (await verifyFairness({ ...settled.fairness, outcome: settled.outcome === "win" ? "loss" : "win" })).ok,
    false,
  );
});

test("points: 10 a win, doubled from a streak of 3, a loss ends the streak; the best streak stays", async (t) => {
  const a = await arcadeService(t);
  const awarded = [];
  for (const wanted of ["win", "win", "win", "win", "loss", "win"]) {
    const next = a.chain.head().number + 1;
    const [salt] = await saltsWhere(
      blockHashOf(next),
      async (s) => (diceOutcome("over", await rollDice(s)) === "win") === (wanted === "win"),
      1,
      `p${next}`,
    );
    const { playId } = data(
      await a.service.call("arcade/play", { game: "dice", choice: "over", salt, player: player() }),
    );
    await a.mineAndDraw();
    const play = data(await a.service.call("arcade/me", { id: ada })).plays.find((p: any) => p.playId === playId);
    awarded.push([play.outcome, play.pointsAwarded, play.streakActive]);
  }
  assert.deepEqual(awarded, [
    ["win", 10, 1],
    ["win", 10, 2],
    ["win", 20, 3],
    ["win", 20, 4],
    ["loss", 0, 0],
    ["win", 10, 1],
  ]);
  const me = data(await a.service.call("arcade/me", { id: ada }));
  assert.deepEqual(
    [me.player.points, me.player.weekPoints, me.player.streak, me.player.bestStreak, me.player.wins, me.player.plays],
    [70, 70, 1, 4, 5, 6],
  );
  assert.equal(me.plays.length, 6);
});

test("24 plays of one player accepted at once are drawn by one block, counted once each", async (t) => {
  const a = await arcadeService(t);
  const salts = Array.from({ length: 24 }, (_, i) => `c-${i}`);
  const results = await Promise.all(
    salts.map((salt) => a.service.call("arcade/play", { game: "dice", choice: "over", salt, player: player("bob") })),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    Array(24).fill(200),
  );
  const block = await a.mineAndDraw();
  const me = data(await a.service.call("arcade/me", { id: data(results[0]).player.id }));
  const expectedWins = (
    await Promise.all(salts.map(async (s) => diceOutcome("over", await rollDice(await seedOf(block.hash, s)))))
  ).filter((o) => o === "win").length;
  assert.equal(me.plays.length, 20, "the last 20, none left open");
  assert.deepEqual([me.player.plays, me.player.wins], [24, expectedWins]);
  assert.ok(me.player.points >= expectedWins * 10 && me.player.points <= expectedWins * 20);
});

test("a salt plays once per player: a second play of it is a 409 before payment, and another player may use it", async (t) => {
  const a = await arcadeService(t);
  const body = { game: "dice", choice: "over", salt: "once", player: player() };
  assert.equal((await a.service.call("arcade/play", body)).status, 200);
  const again = await a.service.call("arcade/play", body);
  assert.equal(again.status, 409);
  assert.equal((again.body as any).error.code, "salt_reused");
  assert.equal((await a.service.call("arcade/play", { ...body, player: player("eve") })).status, 200);
});

test("higherlower with a choice draws both coins from one block; real market caps decide", async (t) => {
  const clock = testClock();
  const chain = await fakeChain(t, clock);
  const { state } = await drawOn("higherlower", "pair", blockHashOf(chain.head().number + 1), "hl-1");
  const a = await arcadeService(
    t,
    [
      marketsFixture([
        [state.shown!, 5e9],
        [state.hidden!, 9e9],
      ]),
    ],
    { clock, chain },
  );
  await a.service.call("arcade/play", { game: "higherlower", choice: "higher", salt: "hl-1", player: player() });
  await a.mineAndDraw();
  const [win] = data(await a.service.call("arcade/me", { id: ada })).plays;
  assert.deepEqual(
    [win.status, win.outcome, win.shown.id, win.hidden.id, win.shown.marketCapUsd, win.hidden.marketCapUsd],
    ["settled", "win", state.shown, state.hidden, 5e9, 9e9],
  );
  assert.deepEqual(win.fairness.derived, { shown: state.shown, hidden: state.hidden });
  assert.equal((await verifyFairness(win.fairness)).ok, true);
});

test("higherlower without a choice shows the coin first; the hidden one comes from the block after the choice", async (t) => {
  const clock = testClock();
  const chain = await fakeChain(t, clock);
  const first = chain.head().number + 1;
  const shown = (await drawOn("higherlower", "show", blockHashOf(first), "hl-2")).state;
  const hidden = (await drawOn("higherlower", "choose", blockHashOf(first + 1), "hl-2", shown)).state.hidden!;
  const a = await arcadeService(
    t,
    [
      marketsFixture([[shown.shown!, 7e9]]),
      marketsFixture([
        [shown.shown!, 7e9],
        [hidden, 3e9],
      ]),
    ],
    { clock, chain },
  );
  const answer = data(await a.service.call("arcade/play", { game: "higherlower", salt: "hl-2", player: player() }));
  assert.deepEqual([answer.status, answer.awaiting.stage, answer.shown], ["pending", "show", undefined]);
  await a.mineAndDraw();
  const [open] = data(await a.service.call("arcade/me", { id: ada })).plays;
  assert.deepEqual(
    [open.status, open.shown.id, open.shown.marketCapUsd, open.hidden, open.awaiting.what],
    ["in_progress", shown.shown, 7e9, undefined, "move"],
  );
  assert.deepEqual(
    open.fairness.stages.map((s: any) => s.action),
    ["show"],
    "the shown coin's draw can be checked before choosing",
  );

  const moved = await a.service.call("arcade/move", { playId: open.playId, move: "lower", player: player() });
  assert.equal(moved.status, 200);
  assert.deepEqual([data(moved).status, data(moved).awaiting.stage], ["pending", "choose"]);
  await a.mineAndDraw();
  const [settled] = data(await a.service.call("arcade/me", { id: ada })).plays;
  assert.deepEqual(
    [settled.status, settled.choice, settled.hidden.id, settled.outcome],
    ["settled", "lower", hidden, "win"],
  );
  assert.deepEqual(
    settled.fairness.stages.map((s: any) => [s.action, s.blockNumber]),
    [
      ["show", first],
      ["choose", first + 1],
    ],
  );
  assert.equal((await verifyFairness(settled.fairness)).ok, true);
});

test("a payment chain that fails at acceptance records nothing and leaves the salt free (503 for a call the service runs)", async (t) => {
  const a = await arcadeService(t);
  a.chain.fail(true);
  const out = await a.service.call("arcade/play", { game: "dice", choice: "over", salt: "x", player: player() });
  assert.equal(out.status, 503);
  assert.deepEqual(await a.service.runtime.store.keys("arcade:play:"), []);
  a.chain.fail(false);
  assert.equal(
    (await a.service.call("arcade/play", { game: "dice", choice: "over", salt: "x", player: player() })).status,
    200,
  );
});

test("bad input is a 400 naming the field, never charged, and calls nothing", async (t) => {
  const a = await arcadeService(t);
  const beforePayment: [unknown, string][] = [
    [{ game: "poker", choice: "over", salt: "s", player: player() }, "game"],
    [{ game: "dice", choice: "sideways", salt: "s", player: player() }, "choice"],
    [{ game: "dice", choice: "over", salt: "", player: player() }, "salt"],
    [{ game: "dice", choice: "over", salt: "s", player: { alias: "ada", secret: "short" } }, "player.secret"],
    [{ game: "dice", choice: "over", salt: "s", player: { alias: "<b>", secret: "long enough" } }, "player.alias"],
  ];
  for (const [body, field] of beforePayment) {
    const res = await a.service.request("/v1/arcade/play", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 400, JSON.stringify(body));
    const error = (await res.json()).error;
    assert.ok(
      error.details.issues.some((i: any) => i.field === field),
      `${field}: ${JSON.stringify(error)}`,
    );
  }
  const perGame: [unknown, string, RegExp][] = [
    [{ game: "dice", salt: "s", player: player() }, "choice", /dice takes choice/],
    [{ game: "dice", choice: "green", salt: "s", player: player() }, "choice", /dice takes choice/],
    [{ game: "blackjack", salt: "s", player: player() }, "action", /needs action deal/],
    [{ game: "blackjack", action: "hit", salt: "s", player: player() }, "action", /POST \/v1\/arcade\/move/],
  ];
  for (const [body, field, message] of perGame) {
    const out = await a.service.call("arcade/play", body);
    assert.equal(out.status, 400, JSON.stringify(body));
    assert.deepEqual(
      (out.body as any).error.details.issues.map((i: any) => i.field),
      [field],
    );
    assert.match((out.body as any).error.message, message);
  }
  assert.deepEqual(a.chain.calls, []);
  assert.deepEqual(a.api.calls, []);
});

test("unpaid, the play is a 402", async (t) => {
  const a = await arcadeService(t);
  const paid = await a.service.request("/v1/arcade/play", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ game: "dice", choice: "over", salt: "p", player: player() }),
  });
  assert.equal(paid.status, 402);
  assert.deepEqual(a.chain.calls, []);
});
