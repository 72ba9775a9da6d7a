import { randomUUID } from "node:crypto";
import type { Store } from "../../core/endpoint.ts";
import { conflict, notFound } from "../../core/runtime/errors.ts";
import { cardsDealt, deal, hit, stand, totalOf, type Hand } from "./_blackjack.ts";
import { latestBlock, PAYMENT_CHAIN, type LatestBlock } from "./_chain.ts";
import { shuffledDeck } from "./_fair.js";
import type { PlayContext } from "./_play.ts";
import { award, ensurePlayer, playerOrNew, scoreOf } from "./_points.ts";
import { claimSeed, fairnessOf, freshSeed, resultFields, saveRecord } from "./_records.ts";
import type { PlayInput, PlayResult } from "./_schemas.ts";

/** An open hand between actions. The deck is recomputed from the seed; only the cards seen are kept. */
interface OpenHand {
  playerId: string;
  alias: string;
  salt: string;
  seedHex: string;
  block: LatestBlock;
  playedAt: string;
  hand: Hand;
  /** Actions taken so far: each action claims its step, so two concurrent actions cannot both apply. */
  step: number;
}

const handKey = (playId: string) => `arcade:hand:${playId}`;
const stepKey = (playId: string, step: number) => `arcade:hand-step:${playId}:${step}`;
const handTtlMs = 24 * 3_600_000;

export async function dealHand(ctx: PlayContext, play: { playId: string; playerId: string; alias: string; salt: string }): Promise<PlayResult> {
  const block = await latestBlock(ctx.upstream(PAYMENT_CHAIN));
  const seedHex = await freshSeed(ctx.store, block, play.salt);
  const open: OpenHand = {
    playerId: play.playerId, alias: play.alias, salt: play.salt, seedHex, block,
    playedAt: ctx.now().toISOString(), hand: deal(await shuffledDeck(seedHex)), step: 0,
  };
  const result = await answerOf(ctx, play.playId, open, "deal");
  ctx.afterPayment(async () => {
    await claimSeed(ctx.store, seedHex, play.playId);
    await commit(ctx.store, play.playId, open, result, true);
  });
  return result;
}

export async function continueHand(ctx: PlayContext, input: PlayInput, playerId: string): Promise<PlayResult> {
  const playId = input.playId!;
  const open = await ctx.store.get<OpenHand>(handKey(playId));
  if (!open || open.playerId !== playerId) throw notFound("No open blackjack hand with this playId for this player (finished hands show in GET /v1/arcade/me)");
  if ((await ctx.store.get(stepKey(playId, open.step))) !== undefined) throw handBusy();
  const deck = await shuffledDeck(open.seedHex);
  const hand = input.action === "hit" ? hit(open.hand, deck) : stand(open.hand, deck);
  const next = { ...open, hand, step: open.step + 1 };
  const result = await answerOf(ctx, playId, next, input.action!);
  const actionId = randomUUID();
  ctx.afterPayment(async () => {
    // Of two actions on one hand paid at once, the first to claim the step applies; the other fails (and is credited).
    const claimed = await ctx.store.claim(stepKey(playId, open.step), actionId, handTtlMs);
    if (!claimed && (await ctx.store.get(stepKey(playId, open.step))) !== actionId) throw handBusy();
    await commit(ctx.store, playId, next, result, false);
  });
  return result;
}

const handBusy = () => conflict("hand_busy", "Another action on this hand came first; read the hand again with GET /v1/arcade/me");

/** The answer to an action, from the hand as it will be saved: a finished hand shows the points it will count. */
async function answerOf(ctx: PlayContext, playId: string, open: OpenHand, action: "deal" | "hit" | "stand"): Promise<PlayResult> {
  const { hand } = open;
  const finished = hand.outcome !== null;
  const at = ctx.now();
  const player = await playerOrNew(ctx.store, open.playerId, open.alias, at);
  const score = finished ? scoreOf(player, hand.outcome!) : undefined;
  const deck = finished ? await shuffledDeck(open.seedHex) : [];
  return {
    playId, game: "blackjack", status: finished ? "settled" : "in_progress", action,
    playedAt: open.playedAt, settledAt: finished ? at.toISOString() : null, ...resultFields(hand.outcome),
    pointsAwarded: score?.pointsAwarded ?? 0, streakActive: score?.streakActive ?? player.streak, player: score?.player ?? player,
    hand: hand.player,
    handTotal: totalOf(hand.player).total,
    dealerUpcard: hand.dealer[0],
    dealerHand: finished ? hand.dealer : [hand.dealer[0]],
    dealerTotal: finished ? totalOf(hand.dealer).total : null,
    inProgress: !finished,
    // The seed stays undisclosed while the hand is open: it would reveal the cards to come.
    fairness: finished ? fairnessOf(open.block, open.salt, open.seedHex, "blackjack", { cards: cardsDealt(deck, hand) }) : null,
  };
}

/** Saves the hand after a paid action: an open hand waits for the next action, a finished one counts once. */
async function commit(store: Store, playId: string, open: OpenHand, result: PlayResult, isNew: boolean): Promise<void> {
  const { playerId, alias, hand } = open;
  await ensurePlayer(store, playerId, alias);
  if (hand.outcome !== null) {
    await award(store, { playId, playerId, alias, outcome: hand.outcome, pointsAwarded: result.pointsAwarded }, new Date(result.settledAt!));
    await store.delete(handKey(playId));
  } else if ((await store.get(stepKey(playId, open.step))) === undefined) {
    // Run again after the next action took its step, the hand is not put back.
    await store.set(handKey(playId), open, handTtlMs);
  }
  await saveRecord(store, playerId, result, isNew);
}
