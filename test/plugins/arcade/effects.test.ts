import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { Plugin, Store } from "../../../core/endpoint.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import type { X402Gate } from "../../../core/x402/offers.ts";
import { importFamily } from "../../../core/runtime/load.ts";
import { diceOutcome, rollDice } from "../../../plugins/arcade/_fair.js";
import { keys, playerIdOf, weekOf } from "../../../plugins/arcade/_points.ts";
import { settlingGate } from "../../helpers/service.ts";
import { effectsTwice, failingOnce, fundedFor, paidPost } from "../_effects.ts";
import { blockHashOf } from "./_chain.ts";
import { arcadeService, player, saltsWhere } from "./_arcade.ts";

const arcade = await importFamily("arcade");

const ada = playerIdOf("ada", "correct horse battery");

async function service(t: TestContext, payments: X402Gate, options: { plugin?: Plugin; store?: Store } = {}) {
  const store = options.store ?? createMemoryStore();
  const s = await arcadeService(t, [], { payments, store, given: options.plugin && [options.plugin] });
  const week = weekOf(s.clock.now());
  const play = async (body: object) => {
    const res = await s.service.request("/v1/arcade/play", paidPost({ player: player(), ...body }));
    return { status: res.status, data: res.status === 200 ? (await res.json()).data : undefined };
  };
  const counts = async () => ({
    records: (await store.keys("arcade:play:")).length,
    recent: (await store.get<string[]>(`arcade:recent:${ada}`)) ?? [],
    points: (await store.get<number>(keys.points(ada))) ?? 0,
    weekPoints: (await store.get<number>(keys.weekPoints(week, ada))) ?? 0,
    board: await store.top(keys.allTimeBoard, 5),
    paidBoard: await store.top(keys.paidWeekBoard(week), 5),
    plays: (await store.get<{ plays: number }>(keys.profile(ada)))?.plays ?? 0,
  });
  const winning = async (prefix: string) =>
    (
      await saltsWhere(
        blockHashOf(s.chain.head().number + 1),
        async (seed) => diceOutcome("over", await rollDice(seed)) === "win",
        1,
        prefix,
      )
    )[0];
  return { ...s, store, play, counts, winning };
}

test("arcade/play: a play whose settlement fails writes nothing (acceptance, salt, player, record) and asks the chain nothing", async (t) => {
  const s = await service(t, settlingGate({ settles: false }));
  assert.equal((await s.play({ game: "dice", choice: "over", salt: "unpaid" })).status, 402);
  assert.deepEqual(await s.store.keys("arcade:"), []);
  assert.deepEqual(s.chain.calls, []);
});

test("arcade/play: a settled winning play is recorded once at acceptance, then counted once when its block is out", async (t) => {
  const s = await service(t, settlingGate());
  const salt = await s.winning("paid");
  const { status, data: answer } = await s.play({ game: "dice", choice: "over", salt });
  assert.equal(status, 200);
  assert.deepEqual(await s.counts(), {
    records: 1,
    recent: [answer.playId],
    points: 0,
    weekPoints: 0,
    plays: 0,
    board: [],
    paidBoard: [],
  });
  await s.mineAndDraw();
  await s.draw();
  assert.deepEqual(await s.counts(), {
    records: 1,
    recent: [answer.playId],
    points: 10,
    weekPoints: 10,
    plays: 1,
    board: [{ member: ada, score: 10 }],
    paidBoard: [{ member: ada, score: 10 }],
  });
  assert.equal((await s.play({ game: "dice", choice: "over", salt })).status, 409, "the paid play used its salt");
});

test("arcade/play: 8 concurrent settled plays of one player write 8 acceptances and count 8 plays", async (t) => {
  const s = await service(t, settlingGate());
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) => s.play({ game: "dice", choice: "over", salt: `eight-${i}` })),
  );
  assert.deepEqual(
    answers.map((a) => a.status),
    Array(8).fill(200),
  );
  await s.mineAndDraw();
  const counts = await s.counts();
  assert.deepEqual(
    [counts.records, counts.recent.length, counts.plays, counts.points === counts.weekPoints],
    [8, 8, 8, true],
  );
});

test("arcade/play: of 8 plays from a wallet funded for one, only the paid one is recorded", async (t) => {
  const s = await service(t, fundedFor(1));
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) => s.play({ game: "dice", choice: "over", salt: `funded-${i}` })),
  );
  const paid = answers.filter((a) => a.status === 200);
  assert.equal(paid.length, 1);
  await s.mineAndDraw();
  const counts = await s.counts();
  assert.deepEqual([counts.records, counts.recent, counts.plays], [1, [paid[0].data.playId], 1]);
});

test("arcade/play: a prediction is scheduled for settlement only once paid", async (t) => {
  const unpaid = await service(t, settlingGate({ settles: false }));
  assert.equal((await unpaid.play({ game: "candle", choice: "green", salt: "p" })).status, 402);
  assert.deepEqual(await unpaid.store.keys("arcade:"), []);
  const paid = await service(t, settlingGate());
  const { data: answer } = await paid.play({ game: "candle", choice: "green", salt: "p" });
  assert.equal(answer.status, "pending");
  assert.deepEqual(await paid.store.keys("arcade:pending:"), [`arcade:pending:${answer.playId}`]);
  assert.equal((await paid.counts()).records, 1);
});

test("blackjack: an unpaid deal leaves no hand", async (t) => {
  const unpaid = await service(t, settlingGate({ settles: false }));
  assert.equal((await unpaid.play({ game: "blackjack", action: "deal", salt: "bj" })).status, 402);
  assert.deepEqual(await unpaid.store.keys("arcade:"), []);
});

test("arcade/play: an acceptance run a second time (a retry) records and counts the play once", async (t) => {
  const twice = effectsTwice(arcade);
  const s = await service(t, settlingGate(), { plugin: twice });
  const salt = await s.winning("twice");
  const { data: answer } = await s.play({ game: "dice", choice: "over", salt });
  assert.deepEqual(twice.failed, [], "the second run finds the salt and the acceptance its own");
  await s.mineAndDraw();
  assert.deepEqual(await s.counts(), {
    records: 1,
    recent: [answer.playId],
    points: 10,
    weekPoints: 10,
    plays: 1,
    board: [{ member: ada, score: 10 }],
    paidBoard: [{ member: ada, score: 10 }],
  });
});

test("arcade draw: a draw whose board write fails is done again by the next tick and counts every part once", async (t) => {
  const store = failingOnce(createMemoryStore(), "rank");
  const s = await service(t, settlingGate(), { store });
  const salt = await s.winning("retried");
  const { data: answer } = await s.play({ game: "dice", choice: "over", salt });
  await s.mineAndDraw();
  assert.equal(store.failed(), true, "the first draw failed at the board");
  assert.equal((await store.get<any>(`arcade:play:${answer.playId}`)).status, "pending");
  await s.draw();
  assert.deepEqual(await s.counts(), {
    records: 1,
    recent: [answer.playId],
    points: 10,
    weekPoints: 10,
    plays: 1,
    board: [{ member: ada, score: 10 }],
    paidBoard: [{ member: ada, score: 10 }],
  });
});
