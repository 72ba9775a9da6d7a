import { test } from "node:test";
import assert from "node:assert/strict";
import { deal, hit, stand, totalOf } from "../../../plugins/arcade/_blackjack.ts";
import { shuffledDeck, verifyFairness } from "../../../plugins/arcade/_fair.js";
import { arcadeService, data, player, saltsWhere } from "./_arcade.ts";

/** A deck dealt as player, dealer, player, dealer, then the listed draws, then filler. */
const stacked = (p: [string, string], d: [string, string], ...draws: string[]) => [p[0], d[0], p[1], d[1], ...draws, ...Array(40).fill("2C")];

test("totals: aces count 11 until that busts, and say when the hand is soft", () => {
  assert.deepEqual(totalOf(["AS", "6H"]), { total: 17, soft: true });
  assert.deepEqual(totalOf(["AS", "6H", "10D"]), { total: 17, soft: false });
  assert.deepEqual(totalOf(["AS", "AH", "9D"]), { total: 21, soft: true });
  assert.deepEqual(totalOf(["KS", "QH", "2D"]), { total: 22, soft: false });
});

test("the dealer stands on soft 17 and hits soft 16 and hard 16", () => {
  const soft17 = stand(deal(stacked(["10S", "9H"], ["AS", "6D"], "5C")), stacked(["10S", "9H"], ["AS", "6D"], "5C"));
  assert.deepEqual([soft17.dealer, soft17.outcome], [["AS", "6D"], "win"]);
  const soft16Deck = stacked(["10S", "7H"], ["AS", "5D"], "2H");
  const soft16 = stand(deal(soft16Deck), soft16Deck);
  assert.deepEqual([soft16.dealer, totalOf(soft16.dealer).total, soft16.outcome], [["AS", "5D", "2H"], 18, "loss"]);
  const hard16Deck = stacked(["10S", "8H"], ["10D", "6D"], "KH");
  const hard16 = stand(deal(hard16Deck), hard16Deck);
  assert.deepEqual([hard16.dealer.length, hard16.outcome], [3, "win"]);
});

test("naturals settle at the deal; a bust loses; 21 stands by itself; equal totals push", () => {
  assert.equal(deal(stacked(["AS", "KH"], ["9D", "8D"])).outcome, "win");
  assert.equal(deal(stacked(["9S", "8H"], ["AD", "QD"])).outcome, "loss");
  assert.equal(deal(stacked(["AS", "KH"], ["AD", "QD"])).outcome, "push");
  const bustDeck = stacked(["10S", "6H"], ["9D", "8D"], "KC");
  assert.equal(hit(deal(bustDeck), bustDeck).outcome, "loss");
  const twentyOne = stacked(["10S", "6H"], ["10D", "7D"], "5C");
  const after = hit(deal(twentyOne), twentyOne);
  assert.deepEqual([totalOf(after.player).total, after.outcome, after.dealer], [21, "win", ["10D", "7D"]]);
  const pushDeck = stacked(["10S", "8H"], ["10D", "8D"]);
  assert.equal(stand(deal(pushDeck), pushDeck).outcome, "push");
});

test("the deck is a Fisher-Yates shuffle of the 52 cards from the seed", async () => {
  const a = await shuffledDeck("00".repeat(32));
  assert.equal(new Set(a).size, 52);
  assert.deepEqual(a, await shuffledDeck("00".repeat(32)));
  assert.notDeepEqual(a, await shuffledDeck("11".repeat(32)));
});

const dealt = async (seed: string) => deal(await shuffledDeck(seed));

test("seeds that force each branch through the endpoint: natural, dealer soft 17, bust, dealer bust", async (t) => {
  const { service } = await arcadeService(t);
  const play = (fields: object) => service.call("arcade/play", { game: "blackjack", salt: "unused", player: player(), ...fields });

  const [natural] = await saltsWhere(async (s) => { const h = await dealt(s); return h.outcome === "win"; }, 1, "natural");
  const out = data(await play({ action: "deal", salt: natural }));
  assert.deepEqual([out.status, out.outcome, out.inProgress, out.handTotal, out.pointsAwarded], ["settled", "win", false, 21, 10]);
  assert.equal(out.fairness.derived.cards.length, 4);
  assert.equal((await verifyFairness(out.fairness)).ok, true);

  const [soft17] = await saltsWhere(async (s) => {
    const h = await dealt(s);
    return h.outcome === null && totalOf(h.dealer).total === 17 && totalOf(h.dealer).soft;
  }, 1, "soft17");
  const open = data(await play({ action: "deal", salt: soft17 }));
  assert.deepEqual([open.status, open.inProgress, open.dealerHand, open.dealerTotal, open.fairness], ["in_progress", true, [open.dealerUpcard], null, null]);
  const stood = data(await play({ action: "stand", playId: open.playId }));
  assert.equal(stood.dealerHand.length, 2, "the dealer stands on soft 17");
  assert.equal(stood.dealerTotal, 17);
  assert.equal(stood.outcome, stood.handTotal > 17 ? "win" : stood.handTotal < 17 ? "loss" : "push");
  assert.equal((await verifyFairness(stood.fairness)).ok, true);

  const [bust] = await saltsWhere(async (s) => {
    const cards = await shuffledDeck(s);
    const h = deal(cards);
    return h.outcome === null && hit(h, cards).outcome === "loss";
  }, 1, "bust");
  const hand = data(await play({ action: "deal", salt: bust }));
  const busted = data(await play({ action: "hit", playId: hand.playId }));
  assert.ok(busted.handTotal > 21);
  assert.deepEqual([busted.outcome, busted.hand.length, busted.fairness.derived.cards.length], ["loss", 3, 5]);
  assert.equal((await verifyFairness(busted.fairness)).ok, true);

  const [dealerBust] = await saltsWhere(async (s) => {
    const cards = await shuffledDeck(s);
    const h = deal(cards);
    return h.outcome === null && totalOf(stand(h, cards).dealer).total > 21;
  }, 1, "dbust");
  const d = data(await play({ action: "deal", salt: dealerBust }));
  const won = data(await play({ action: "stand", playId: d.playId }));
  assert.ok(won.dealerTotal > 21);
  assert.equal(won.outcome, "win");
  assert.equal((await verifyFairness(won.fairness)).ok, true);
});

test("a hand answers only its player, takes one action at a time, and counts once", async (t) => {
  const { service } = await arcadeService(t);
  const [salt] = await saltsWhere(async (s) => (await dealt(s)).outcome === null, 1, "open");
  const open = data(await service.call("arcade/play", { game: "blackjack", action: "deal", salt, player: player() }));
  const stranger = await service.call("arcade/play", { game: "blackjack", action: "stand", playId: open.playId, salt: "x", player: player("eve") });
  assert.equal(stranger.status, 404);
  const both = await Promise.all([1, 2].map(() => service.call("arcade/play", { game: "blackjack", action: "stand", playId: open.playId, salt: "x", player: player() })));
  const statuses = both.map((r) => r.status).sort();
  assert.equal(statuses[0], 200);
  // Both may pass the handler's check; the step each claims once paid lets one of them apply (the other answers 503).
  assert.ok([404, 409, 503].includes(statuses[1]), String(statuses));
  assert.equal((await service.runtime.store.keys(`arcade:hand-step:${open.playId}:`)).length, 1, "one action took the step");
  const me = data(await service.call("arcade/me", { id: open.player.id }));
  assert.equal(me.player.plays, 1);
  assert.equal(me.plays.length, 1);
  assert.equal(me.plays[0].playId, open.playId);
  assert.equal(me.plays[0].status, "settled");
  const after = await service.call("arcade/play", { game: "blackjack", action: "hit", playId: open.playId, salt: "x", player: player() });
  assert.equal(after.status, 404);
});
