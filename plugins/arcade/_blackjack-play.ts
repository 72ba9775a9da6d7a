import { conflict, notFound } from "../../core/runtime/errors.ts";
import { cardsDealt, deal, hit, stand, totalOf, type Hand } from "./_blackjack.ts";
import { latestBlock, PAYMENT_CHAIN, type LatestBlock } from "./_chain.ts";
import { shuffledDeck } from "./_fair.js";
import type { PlayContext } from "./_play.ts";
import { award, playerView } from "./_points.ts";
import { claimSeed, fairnessOf, resultFields, saveRecord } from "./_records.ts";
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
  const seed = await claimSeed(ctx.store, block, play.salt, play.playId);
  const open: OpenHand = {
    playerId: play.playerId, alias: play.alias, salt: play.salt, seedHex: seed.seedHex, block,
    playedAt: ctx.now().toISOString(), hand: deal(await shuffledDeck(seed.seedHex)), step: 0,
  };
  try {
    return await advance(ctx, play.playId, open, "deal", true);
  } catch (error) {
    await seed.release();
    throw error;
  }
}

export async function continueHand(ctx: PlayContext, input: PlayInput, playerId: string): Promise<PlayResult> {
  const playId = input.playId!;
  const open = await ctx.store.get<OpenHand>(handKey(playId));
  if (!open || open.playerId !== playerId) throw notFound("No open blackjack hand with this playId for this player (finished hands show in GET /v1/arcade/me)");
  if (!(await ctx.store.claim(stepKey(playId, open.step), input.action, handTtlMs))) {
    throw conflict("hand_busy", "Another action on this hand came first; read the hand again with GET /v1/arcade/me");
  }
  const deck = await shuffledDeck(open.seedHex);
  const hand = input.action === "hit" ? hit(open.hand, deck) : stand(open.hand, deck);
  return advance(ctx, playId, { ...open, hand, step: open.step + 1 }, input.action!, false);
}

/** Saves the hand after an action: an open hand waits for the next action, a finished one counts once. */
async function advance(ctx: PlayContext, playId: string, open: OpenHand, action: "deal" | "hit" | "stand", isNew: boolean): Promise<PlayResult> {
  const { hand } = open;
  const finished = hand.outcome !== null;
  const view = { playId, playerId: open.playerId, alias: open.alias };
  const counted = finished ? await award(ctx.store, { ...view, outcome: hand.outcome! }, ctx.now()) : undefined;
  const player = counted?.player ?? (await playerView(ctx.store, open.playerId, ctx.now()))!;
  const deck = finished ? await shuffledDeck(open.seedHex) : [];
  const result: PlayResult = {
    playId, game: "blackjack", status: finished ? "settled" : "in_progress", action,
    playedAt: open.playedAt, settledAt: finished ? ctx.now().toISOString() : null, ...resultFields(hand.outcome),
    pointsAwarded: counted?.pointsAwarded ?? 0, streakActive: counted?.streakActive ?? player.streak, player,
    hand: hand.player,
    handTotal: totalOf(hand.player).total,
    dealerUpcard: hand.dealer[0],
    dealerHand: finished ? hand.dealer : [hand.dealer[0]],
    dealerTotal: finished ? totalOf(hand.dealer).total : null,
    inProgress: !finished,
    // The seed stays undisclosed while the hand is open: it would reveal the cards to come.
    fairness: finished ? fairnessOf(open.block, open.salt, open.seedHex, "blackjack", { cards: cardsDealt(deck, hand) }) : null,
  };
  if (finished) await ctx.store.delete(handKey(playId));
  else await ctx.store.set(handKey(playId), open, handTtlMs);
  await saveRecord(ctx.store, open.playerId, result, isNew);
  return result;
}
