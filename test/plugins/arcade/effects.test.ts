import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { Plugin, Store } from "../../../core/endpoint.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import type { PaymentGate } from "../../../core/x402/gate.ts";
import arcade from "../../../plugins/arcade/index.ts";
import { deal, hit, stand } from "../../../plugins/arcade/_blackjack.ts";
import { rollDice, shuffledDeck } from "../../../plugins/arcade/_fair.js";
import { keys, playerIdOf, weekOf } from "../../../plugins/arcade/_points.ts";
import { settlingGate } from "../../helpers/service.ts";
import { effectsTwice, failingOnce, fundedFor, paidPost, settlingTogether } from "../_effects.ts";
import { arcadeService, data, marketsFixture, player, saltsWhere } from "./_arcade.ts";

const ada = playerIdOf("ada", "correct horse battery");
const week = weekOf(new Date());
const wins = (count: number, prefix: string) => saltsWhere(async (s) => (await rollDice(s)).reduce((a, b) => a + b) >= 8, count, prefix);
const openHand = (prefix: string) => saltsWhere(async (s) => deal(await shuffledDeck(s)).outcome === null, 1, prefix);

async function service(t: TestContext, payments: PaymentGate, options: { plugin?: Plugin; store?: Store } = {}) {
  const store = options.store ?? createMemoryStore();
  const { service: s } = await arcadeService(t, [], { payments, store, given: options.plugin && [options.plugin] });
  const play = async (body: object) => {
    const res = await s.request("/v1/arcade/play", paidPost({ player: player(), ...body }));
    return { status: res.status, data: res.status === 200 ? (await res.json()).data : undefined };
  };
  const counts = async () => ({
    records: (await store.keys("arcade:play:")).length,
    recent: (await store.get<string[]>(`arcade:recent:${ada}`)) ?? [],
    points: (await store.get<number>(keys.points(ada))) ?? 0,
    weekPoints: (await store.get<number>(keys.weekPoints(week, ada))) ?? 0,
    board: await store.top(keys.allTimeBoard, 5),
    weekBoard: await store.top(keys.weekBoard(week), 5),
    plays: (await store.get<{ plays: number }>(keys.profile(ada)))?.plays ?? 0,
  });
  return { ...s, store, play, counts };
}

test("arcade/play: a dice play whose settlement fails writes nothing (record, player, points, board, seed)", async (t) => {
  const s = await service(t, settlingGate({ settles: false }));
  const [salt] = await wins(1, "unpaid");
  assert.equal((await s.play({ game: "dice", choice: "over", salt })).status, 402);
  assert.deepEqual(await s.store.keys("arcade:"), []);
  assert.deepEqual(await s.store.top(keys.allTimeBoard, 5), []);
});

test("arcade/play: a settled winning play writes one record and the 10 points its answer showed, once on each board", async (t) => {
  const s = await service(t, settlingGate());
  const [salt] = await wins(1, "paid");
  const { status, data: answer } = await s.play({ game: "dice", choice: "over", salt });
  assert.equal(status, 200);
  assert.equal(answer.pointsAwarded, 10);
  assert.deepEqual(await s.counts(), {
    records: 1, recent: [answer.playId], points: 10, weekPoints: 10, plays: 1,
    board: [{ member: ada, score: 10 }], weekBoard: [{ member: ada, score: 10 }],
  });
  assert.equal((await s.play({ game: "dice", choice: "over", salt })).status, 409, "the paid play used its seed");
});

test("arcade/play: 8 concurrent settled plays of one player write 8 records and exactly the points their answers showed", async (t) => {
  const s = await service(t, settlingGate());
  const salts = await saltsWhere(() => true, 8, "eight");
  const answers = await Promise.all(salts.map((salt) => s.play({ game: "dice", choice: "over", salt })));
  assert.deepEqual(answers.map((a) => a.status), Array(8).fill(200));
  const shown = answers.reduce((sum, a) => sum + a.data.pointsAwarded, 0);
  const counts = await s.counts();
  assert.deepEqual([counts.records, counts.recent.length, counts.plays, counts.points, counts.weekPoints], [8, 8, 8, shown, shown]);
});

test("arcade/play: of 8 plays from a wallet funded for one, only the paid one is recorded", async (t) => {
  const s = await service(t, fundedFor(1));
  const salts = await saltsWhere(() => true, 8, "funded");
  const answers = await Promise.all(salts.map((salt) => s.play({ game: "dice", choice: "over", salt })));
  const paid = answers.filter((a) => a.status === 200);
  assert.equal(paid.length, 1);
  const counts = await s.counts();
  assert.deepEqual([counts.records, counts.recent, counts.plays, counts.points], [1, [paid[0].data.playId], 1, paid[0].data.pointsAwarded]);
});

test("arcade/play: a prediction is scheduled for settlement only once paid", async (t) => {
  const unpaid = await service(t, settlingGate({ settles: false }));
  assert.equal((await unpaid.play({ game: "funding", choice: "positive", salt: "p" })).status, 402);
  assert.deepEqual(await unpaid.store.keys("arcade:"), []);
  const paid = await service(t, settlingGate());
  const { data: answer } = await paid.play({ game: "funding", choice: "positive", salt: "p" });
  assert.equal(answer.status, "pending");
  assert.deepEqual(await paid.store.keys("arcade:pending:"), [`arcade:pending:${answer.playId}`]);
  assert.equal((await paid.counts()).records, 1);
});

test("blackjack: an unpaid deal leaves no hand; an unpaid hit leaves the paid hand where it was", async (t) => {
  const [salt] = await openHand("bj-unpaid");
  const unpaid = await service(t, settlingGate({ settles: false }));
  assert.equal((await unpaid.play({ game: "blackjack", action: "deal", salt })).status, 402);
  assert.deepEqual(await unpaid.store.keys("arcade:"), []);

  const s = await service(t, fundedFor(1));
  const { data: dealt } = await s.play({ game: "blackjack", action: "deal", salt });
  const hand = await s.store.get(`arcade:hand:${dealt.playId}`);
  assert.equal((await s.play({ game: "blackjack", action: "hit", playId: dealt.playId, salt })).status, 402);
  assert.deepEqual(await s.store.get(`arcade:hand:${dealt.playId}`), hand);
  assert.deepEqual(await s.store.keys("arcade:hand-step:"), []);
  assert.equal((await s.store.get<any>(`arcade:play:${dealt.playId}`)).status, "in_progress");
  assert.equal((await s.counts()).plays, 0);
});

test("blackjack: a hit and a stand paid on one hand at once: exactly one applies, the other answers 503 (credited)", async (t) => {
  const [salt] = await saltsWhere(async (s) => {
    const cards = await shuffledDeck(s);
    const h = deal(cards);
    return h.outcome === null && hit(h, cards).outcome === null && stand(h, cards).outcome !== null;
  }, 1, "bj-race");
  const tracked = effectsTwice(arcade);
  const s = await service(t, settlingTogether(2), { plugin: tracked });
  const dealt = data(await s.call("arcade/play", { game: "blackjack", action: "deal", salt, player: player() }));
  const [hitAnswer, standAnswer] = await Promise.all(["hit", "stand"].map((action) => s.play({ game: "blackjack", action, playId: dealt.playId, salt })));
  assert.deepEqual([hitAnswer.status, standAnswer.status].sort(), [200, 503], "both passed the handler's check; the second to be paid could not apply");
  assert.ok(tracked.failed.length > 0 && tracked.failed.every((e: any) => e.code === "hand_busy"));
  const record = await s.store.get<any>(`arcade:play:${dealt.playId}`);
  const applied = [hitAnswer, standAnswer].find((a) => a.status === 200)!.data;
  assert.equal(record.action, applied.action);
  assert.deepEqual(record, applied, "the record is the answer of the action that applied");
  assert.equal((await s.counts()).plays, record.status === "settled" ? 1 : 0);
  assert.equal((await s.store.keys("arcade:hand-step:")).length, 1);
});

test("arcade/play: an effect run a second time (a retry) counts the play once", async (t) => {
  const twice = effectsTwice(arcade);
  const s = await service(t, settlingGate(), { plugin: twice });
  const [salt] = await wins(1, "twice");
  const { data: answer } = await s.play({ game: "dice", choice: "over", salt });
  assert.deepEqual(twice.failed, [], "the second run finds the seed its own");
  assert.deepEqual(await s.counts(), {
    records: 1, recent: [answer.playId], points: 10, weekPoints: 10, plays: 1,
    board: [{ member: ada, score: 10 }], weekBoard: [{ member: ada, score: 10 }],
  });
});

test("arcade/play: an effect whose board write fails is run again and counts every part once", async (t) => {
  const store = failingOnce(createMemoryStore(), "rank");
  const s = await service(t, settlingGate(), { store });
  const [salt] = await wins(1, "retried");
  const { data: answer } = await s.play({ game: "dice", choice: "over", salt });
  assert.equal(store.failed(), true, "the first run failed at the board");
  assert.deepEqual(await s.counts(), {
    records: 1, recent: [answer.playId], points: 10, weekPoints: 10, plays: 1,
    board: [{ member: ada, score: 10 }], weekBoard: [{ member: ada, score: 10 }],
  });
});

test("arcade/web-play: the free play records once it answered; one that fails upstream records nothing", async (t) => {
  const [salt, failing] = await saltsWhere(() => true, 2, "web");
  const broken = { ...(await marketsFixture(failing, [1, 2])), response: { status: 500, body: { error: "internal" } } };
  const { service: s } = await arcadeService(t, [broken]);
  const post = (body: object) => s.request("/arcade/api/play", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ player: player(), ...body }) });
  assert.equal((await post({ game: "higherlower", choice: "higher", salt: failing })).status, 502);
  assert.deepEqual(await s.runtime.store.keys("arcade:play:"), []);
  assert.equal((await post({ game: "dice", choice: "over", salt })).status, 200);
  assert.equal((await s.runtime.store.keys("arcade:play:")).length, 1);
  assert.equal((await s.runtime.store.get<{ plays: number }>(keys.profile(ada)))?.plays, 1);
});
