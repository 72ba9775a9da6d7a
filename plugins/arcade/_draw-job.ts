import type { JobContext, JobDef, Store, Upstream } from "../../core/endpoint.ts";
import type { PlayOutcome } from "./_blackjack.js";
import { blockAt, chainHead, PAYMENT_CHAIN } from "./_chain.ts";
import { marketCaps } from "./_coins.ts";
import { diceOutcome, drawStage, seedOf } from "./_fair.js";
import { award, awarded, playerOrNew, withLock } from "./_points.ts";
import { saveRecord } from "./_records.ts";
import { refundOnce, refundText } from "./_refund.ts";
import { loadSeeded, MOVE_WAIT_MS, renderSeeded, saveSeeded, seededKeys, type SeededPlay } from "./_seeded.ts";

/** What the job needs: the shared store, the payment chain and CoinGecko, a clock. */
type DrawContext = Pick<JobContext, "store" | "now" | "log" | "signal" | "credits"> & {
  upstream(name: string): Upstream;
};

/**
 * Plays every stage whose deciding block is out, ends hands and shown coins that waited too long for the
 * player (a loss), and voids plays whose block never came (fee credited back). Each play changes under its
 * own lock, so instances and overlapping ticks take turns on it.
 */
export async function drawDuePlays(ctx: DrawContext): Promise<number> {
  let head: number | undefined;
  let changed = 0;
  for (const key of await ctx.store.keys(seededKeys.livePrefix)) {
    if (ctx.signal.aborted) break;
    const playId = key.slice(seededKeys.livePrefix.length);
    try {
      const play = await loadSeeded(ctx.store, playId);
      if (play?.status === "pending" && play.next?.blockNumber != null) {
        head ??=
          (
            await chainHead(ctx.upstream(PAYMENT_CHAIN)).catch(
              (err) => (ctx.log.warn({ err }, "arcade: the payment chain did not answer"), undefined),
            )
          )?.number ?? -1;
        if (head < play.next.blockNumber && Date.parse(play.deadline) >= ctx.now().getTime()) continue;
      } else if (play?.status === "in_progress" && Date.parse(play.deadline) >= ctx.now().getTime()) continue;
      if (await advance(ctx, playId)) changed++;
    } catch (err) {
      ctx.log.warn({ err, playId }, "arcade draw will retry");
    }
  }
  return changed;
}

/** One step of a play, under its lock: draw its stage, or end it past its deadline. True when it changed. */
export function advance(ctx: DrawContext, playId: string): Promise<boolean> {
  return withLock(ctx.store, seededKeys.lock(playId), async () => {
    const play = await loadSeeded(ctx.store, playId);
    const now = ctx.now();
    if (!play || play.status === "settled" || play.status === "void") {
      await ctx.store.delete(seededKeys.live(playId));
      return false;
    }
    if (play.status === "pending" && play.next?.blockNumber != null) {
      const block = await blockAt(ctx.upstream(PAYMENT_CHAIN), play.next.blockNumber).catch(() => undefined);
      if (block) return draw(ctx, play, block.hash).then(() => true);
      if (Date.parse(play.deadline) >= now.getTime()) return false;
      const refundUsd = await refundOnce(ctx.store, ctx.credits, play);
      const reason = `block ${play.next.blockNumber} of ${play.network} was not read by the deadline ${play.deadline}`;
      return save(ctx, {
        ...play,
        status: "void",
        next: null,
        void: { reason, refundUsd, refund: refundText(refundUsd) },
      }).then(() => true);
    }
    if (play.status === "in_progress" && Date.parse(play.deadline) < now.getTime()) {
      return finish(ctx, { ...play, note: `no move by ${play.deadline}: the open play counts as a loss` }, "loss").then(
        () => true,
      );
    }
    return false;
  });
}

/** Draws the waiting stage from its block's hash, then settles the play or waits for the player's move. */
async function draw(ctx: DrawContext, play: SeededPlay, blockHash: string): Promise<void> {
  const next = play.next!;
  const seedHex = await seedOf(blockHash, play.salt);
  const { state, drawn } = await drawStage(play.game, next.action, seedHex, play.state);
  const drawnPlay: SeededPlay = {
    ...play,
    state,
    next: null,
    stages: [
      ...play.stages,
      { action: next.action, acceptedAt: next.acceptedAt, blockNumber: next.blockNumber!, blockHash, seedHex, drawn },
    ],
  };
  const waitForMove = (more: Partial<SeededPlay>) =>
    save(ctx, {
      ...drawnPlay,
      ...more,
      status: "in_progress",
      deadline: new Date(ctx.now().getTime() + MOVE_WAIT_MS).toISOString(),
    });
  if (play.game === "dice") return finish(ctx, drawnPlay, diceOutcome(play.choice!, state.dice!));
  if (play.game === "blackjack")
    return state.hand!.outcome === null ? waitForMove({}) : finish(ctx, drawnPlay, state.hand!.outcome);
  if (next.action === "show") {
    const [shown] = await marketCaps(ctx.upstream("coingecko"), [state.shown!]);
    return waitForMove({ shown });
  }
  const [shown, hidden] = await marketCaps(ctx.upstream("coingecko"), [state.shown!, state.hidden!]);
  const compared = Math.sign(hidden.marketCapUsd! - shown.marketCapUsd!);
  return finish(
    ctx,
    { ...drawnPlay, shown, hidden },
    compared === 0 ? "push" : compared > 0 === (play.choice === "higher") ? "win" : "loss",
  );
}

/** Counts the play once (points, streak, boards) and settles its record. */
async function finish(ctx: DrawContext, play: SeededPlay, outcome: PlayOutcome): Promise<void> {
  const counted = await award(ctx.store, { ...play, outcome }, ctx.now());
  const pointsAwarded = counted?.pointsAwarded ?? (await awarded(ctx.store, play.playId));
  await save(ctx, {
    ...play,
    status: "settled",
    outcome,
    settledAt: ctx.now().toISOString(),
    pointsAwarded,
    next: null,
  });
}

async function save(ctx: { store: Store; now(): Date }, play: SeededPlay): Promise<void> {
  await saveSeeded(ctx.store, play);
  await saveRecord(
    ctx.store,
    play.playerId,
    renderSeeded(play, await playerOrNew(ctx.store, play.playerId, play.alias, ctx.now())),
  );
  if (play.status === "settled" || play.status === "void") await ctx.store.delete(seededKeys.live(play.playId));
}

export const drawJob: JobDef = {
  name: "arcade-draw",
  everyMs: 1_000,
  upstreams: [PAYMENT_CHAIN, "coingecko"],
  run: async (ctx) => void (await drawDuePlays(ctx)),
};
