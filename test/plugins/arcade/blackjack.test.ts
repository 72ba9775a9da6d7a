import { test } from "node:test";
import assert from "node:assert/strict";
import { deal, hit, stand, totalOf } from "../../../plugins/arcade/_blackjack.js";
import { diceOutcome, rollDice, shuffled, verifyFairness } from "../../../plugins/arcade/_fair.js";
import { playerIdOf } from "../../../plugins/arcade/_points.ts";
import { settlingGate } from "../../helpers/service.ts";
import { paidPost } from "../_effects.ts";
import { blockHashOf } from "./_chain.ts";
import { arcadeService, data, drawOn, player, saltsWhere } from "./_arcade.ts";

/** A deck dealt as player, dealer upcard, player, then the listed cards, then filler. */
const stacked = (p: [string, string], up: string, ...rest: string[]) => [
  p[0],
  up,
  p[1],
  ...rest,
  ...Array(40).fill("2C"),
];
const ada = playerIdOf("ada", "correct horse battery");

test("totals: aces count 11 until that busts, and say when the hand is soft", () => {
  assert.deepEqual(totalOf(["AS", "6H"]), { total: 17, soft: true });
  assert.deepEqual(totalOf(["AS", "6H", "10D"]), { total: 17, soft: false });
  assert.deepEqual(totalOf(["AS", "AH", "9D"]), { total: 21, soft: true });
  assert.deepEqual(totalOf(["KS", "QH", "2D"]), { total: 22, soft: false });
});

test("no hole card: the deal shows 3 cards; the dealer draws its second card only when the player stands, and stands on soft 17", () => {
  const open = deal(stacked(["10S", "9H"], "AS"));
  assert.deepEqual([open.hand.dealer, open.drawn.length, open.hand.outcome], [["AS"], 3, null]);
  const soft17 = stand(open.hand, ["6D", "5C"]);
  assert.deepEqual([soft17.hand.dealer, soft17.drawn, soft17.hand.outcome], [["AS", "6D"], ["6D"], "win"]);
  const soft16 = stand(deal(stacked(["10S", "7H"], "AS")).hand, ["5D", "2H", "KC"]);
  assert.deepEqual(
    [soft16.hand.dealer, totalOf(soft16.hand.dealer).total, soft16.hand.outcome],
    [["AS", "5D", "2H"], 18, "loss"],
  );
  const natural = stand(deal(stacked(["10S", "8H"], "KD")).hand, ["AH"]);
  assert.deepEqual([natural.hand.dealer, natural.hand.outcome], [["KD", "AH"], "loss"]);
});

test("a player's natural settles at the deal (a push only against a dealer natural); a bust loses; 21 stands by itself", () => {
  assert.deepEqual(
    [deal(stacked(["AS", "KH"], "9D", "8D")).hand.outcome, deal(stacked(["AS", "KH"], "9D", "8D")).drawn.length],
    ["win", 4],
  );
  assert.equal(deal(stacked(["AS", "KH"], "AD", "QD")).hand.outcome, "push");
  const open = deal(stacked(["10S", "6H"], "9D")).hand;
  assert.equal(hit(open, ["KC"]).hand.outcome, "loss");
  const twentyOne = hit(open, ["5C", "7D", "2S"]);
  assert.deepEqual(
    [totalOf(twentyOne.hand.player).total, twentyOne.hand.dealer, twentyOne.drawn, twentyOne.hand.outcome],
    [21, ["9D", "7D", "2S"], ["5C", "7D", "2S"], "win"],
  );
  assert.equal(stand(deal(stacked(["10S", "8H"], "10D")).hand, ["8D"]).hand.outcome, "push");
});

test("the deck is a Fisher-Yates shuffle of the 52 cards from the seed", async () => {
  const a = await shuffled("00".repeat(32));
  assert.equal(new Set(a).size, 52);
  assert.deepEqual(a, await shuffled("00".repeat(32)));
  assert.notDeepEqual(a, await shuffled("11".repeat(32)));
});

test("blackjack: one fee for the hand; every card comes from a block mined after the action that asked for it", async (t) => {
  const a = await arcadeService(t, [], { payments: settlingGate() });
  const first = a.chain.head().number + 1;
  // A hand still open after one hit, so deal, hit and stand each take a block.
  const [salt] = await saltsWhere(blockHashOf(first), async () => true, 200, "bj").then(async (salts) => {
    for (const s of salts) {
      const dealt = await drawOn("blackjack", "deal", blockHashOf(first), s);
      if (dealt.state.hand!.outcome !== null) continue;
      const hitOnce = await drawOn("blackjack", "hit", blockHashOf(first + 1), s, dealt.state);
      if (hitOnce.state.hand!.outcome === null) return [s];
    }
    throw new Error("no salt found");
  });
  const dealt = await a.service.request(
    "/v1/arcade/play",
    paidPost({ game: "blackjack", action: "deal", salt, player: player() }),
  );
  assert.equal(dealt.status, 200);
  const { playId } = (await dealt.json()).data;
  const me = async () =>
    data(await a.service.call("arcade/me", { id: ada })).plays.find((p: any) => p.playId === playId);
  await a.mineAndDraw();
  const open = await me();
  assert.deepEqual(
    [open.status, open.hand.length, open.dealerHand.length, open.dealerTotal, open.awaiting.what],
    ["in_progress", 2, 1, null, "move"],
  );

  const move = (name: string) =>
    a.service.request("/v1/arcade/move", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ playId, move: name, player: player() }),
    });
  assert.equal((await move("hit")).status, 200, "a move is free: no payment asked");
  assert.equal((await move("stand")).status, 409, "one move at a time: the hit's card is not out yet");
  await a.mineAndDraw();
  assert.equal((await me()).hand.length, 3);
  assert.equal((await move("stand")).status, 200);
  await a.mineAndDraw();
  const done = await me();
  assert.equal(done.status, "settled");
  assert.ok(done.dealerHand.length >= 2);
  assert.deepEqual(
    done.fairness.stages.map((s: any) => [s.action, s.blockNumber]),
    [
      ["deal", first],
      ["hit", first + 1],
      ["stand", first + 2],
    ],
  );
  assert.equal(done.fairness.outcome, done.outcome);
  assert.equal((await verifyFairness(done.fairness)).ok, true);
  assert.equal(
    (await a.service.call("arcade/play", { game: "blackjack", action: "stand", playId, salt, player: player() }))
      .status,
    400,
    "the paid route takes no hit or stand",
  );
  assert.equal((await move("hit")).status, 409, "the hand is over");
  assert.equal(
    (
      await a.service.request("/v1/arcade/move", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ playId, move: "hit", player: player("eve") }),
      })
    ).status,
    404,
    "only its player moves a hand",
  );
  const me2 = data(await a.service.call("arcade/me", { id: ada }));
  assert.deepEqual([me2.player.plays, me2.plays.length], [1, 1], "the hand is one play");
});

test("blackjack: a hand left open past its deadline counts as a loss and ends the streak", async (t) => {
  const a = await arcadeService(t);
  for (let i = 0; i < 3; i++) {
    const [salt] = await saltsWhere(
      blockHashOf(a.chain.head().number + 1),
      async (s) => diceOutcome("over", await rollDice(s)) === "win",
      1,
      `streak-${i}`,
    );
    await a.service.call("arcade/play", { game: "dice", choice: "over", salt, player: player() });
    await a.mineAndDraw();
  }
  assert.equal(data(await a.service.call("arcade/me", { id: ada })).player.streak, 3);
  const [salt] = await saltsWhere(blockHashOf(a.chain.head().number + 1), async () => true, 50, "abandon").then(
    async (salts) => {
      for (const s of salts)
        if ((await drawOn("blackjack", "deal", blockHashOf(a.chain.head().number + 1), s)).state.hand!.outcome === null)
          return [s];
      throw new Error("no salt found");
    },
  );
  const { playId } = data(
    await a.service.call("arcade/play", { game: "blackjack", action: "deal", salt, player: player() }),
  );
  await a.mineAndDraw();
  const open = data(await a.service.call("arcade/me", { id: ada })).plays.find((p: any) => p.playId === playId);
  assert.equal(open.status, "in_progress");
  // Each draw tick moves the clock a second: the first lands on the deadline, the second past it.
  a.clock.set(new Date(Date.parse(open.awaiting.deadline) - 1_000).toISOString());
  await a.draw();
  assert.equal(
    data(await a.service.call("arcade/me", { id: ada })).plays.find((p: any) => p.playId === playId).status,
    "in_progress",
    "not before the deadline",
  );
  await a.draw();
  const me = data(await a.service.call("arcade/me", { id: ada }));
  const ended = me.plays.find((p: any) => p.playId === playId);
  assert.deepEqual(
    [ended.status, ended.outcome, ended.pointsAwarded, me.player.streak, me.player.plays],
    ["settled", "loss", 0, 0, 4],
  );
  assert.match(ended.note, /no move by .*counts as a loss/);
  assert.equal((await a.service.call("arcade/move", { playId, move: "stand", player: player() })).status, 409);
});

test("blackjack: two moves sent at once: one applies, the other is refused", async (t) => {
  const a = await arcadeService(t);
  const next = a.chain.head().number + 1;
  const [salt] = await saltsWhere(blockHashOf(next), async () => true, 50, "race").then(async (salts) => {
    for (const s of salts)
      if ((await drawOn("blackjack", "deal", blockHashOf(next), s)).state.hand!.outcome === null) return [s];
    throw new Error("no salt found");
  });
  const { playId } = data(
    await a.service.call("arcade/play", { game: "blackjack", action: "deal", salt, player: player() }),
  );
  await a.mineAndDraw();
  const both = await Promise.all(
    ["hit", "stand"].map((move) => a.service.call("arcade/move", { playId, move, player: player() })),
  );
  const statuses = both.map((r) => r.status).sort();
  assert.equal(statuses[0], 200);
  assert.ok([409, 503].includes(statuses[1]), String(statuses));
  assert.equal((await a.service.runtime.store.keys(`arcade:move:${playId}:`)).length, 1, "one move took the step");
  await a.mineAndDraw();
  const stages = data(await a.service.call("arcade/me", { id: ada })).plays[0].fairness.stages.map(
    (s: any) => s.action,
  );
  assert.equal(stages.length, 2);
  assert.equal(stages[1], data(both.find((r) => r.status === 200)!).awaiting.stage);
});
