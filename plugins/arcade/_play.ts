import { randomUUID } from "node:crypto";
import type { Store, Upstream } from "../../core/endpoint.ts";
import { badRequest, conflict } from "../../core/runtime/errors.ts";
import { chainHead, PAYMENT_CHAIN } from "./_chain.ts";
import { ensurePlayer, playerIdOf, playerOrNew, withLock } from "./_points.ts";
import { forgetRecord, recordKeys, saveRecord } from "./_records.ts";
import { CHOICES, type PlayInput, type PlayResult } from "./_schemas.ts";
import {
  BLOCK_WAIT_MS,
  KEEP_MS,
  loadSeeded,
  renderSeeded,
  seededKeys,
  type SeededGame,
  type SeededPlay,
  type StageAction,
} from "./_seeded.ts";
import { startPrediction } from "./_predict.ts";
import type { FundingVenue } from "./_referees.ts";

/** What a play needs from its endpoint's context. */
export interface PlayContext {
  store: Store;
  upstream(name: string): Upstream;
  now(): Date;
  settings: { fundingVenue: FundingVenue };
  /** A play writes nothing itself: its acceptance and everything after it are written here, once the call is paid for. */
  afterPayment(apply: () => Promise<unknown>, undo?: () => Promise<unknown>): void;
  /** Holds the play's salt before payment, so that a salt played already is refused free. */
  reserve(key: string, value: unknown, ttlMs: number): Promise<boolean>;
}

/** The route's fee: a paid play counts for the promo codes and is credited back if it ends void. */
export interface Fee {
  usd: string;
  paid: boolean;
}

/** Every upstream a play may call. */
export const PLAY_UPSTREAMS = [PAYMENT_CHAIN, "coingecko", "alternative-me"] as const;

const issue = (field: string, message: string) =>
  badRequest(`Invalid input for arcade/play: ${message}`, { issues: [{ field, message }] });
export const saltReused = () =>
  conflict("salt_reused", "You played this salt already; choose a new salt for every play");

/** The one play path behind the paid route and the free web route: it accepts the play; blocks and data decide it later. */
export async function play(ctx: PlayContext, input: PlayInput, fee: Fee): Promise<PlayResult> {
  checkGameFields(input);
  const playerId = playerIdOf(input.player.alias, input.player.secret);
  const base = {
    playId: randomUUID(),
    playerId,
    alias: input.player.alias,
    salt: input.salt,
    paid: fee.paid,
    feeUsd: fee.usd,
  };
  if (input.game === "dice" || input.game === "higherlower" || input.game === "blackjack") {
    if (!(await ctx.reserve(recordKeys.salt(playerId, input.salt), base.playId, KEEP_MS))) throw saltReused();
    return acceptSeeded(ctx, { ...base, game: input.game, choice: input.choice ?? null });
  }
  return startPrediction(ctx, { ...base, ...fee, game: input.game, choice: input.choice! });
}

/** Which fields a game needs (400, never charged). */
function checkGameFields(input: PlayInput): void {
  if (input.game === "blackjack") {
    if (!input.action) throw issue("action", "blackjack needs action deal");
    if (input.action !== "deal")
      throw issue(
        "action",
        `${input.action} is free: POST /v1/arcade/move {playId, move: "${input.action}", player}; one fee covers the whole hand`,
      );
    return;
  }
  const allowed: readonly string[] = CHOICES[input.game];
  if (input.game === "higherlower" && !input.choice) return;
  if (!input.choice || !allowed.includes(input.choice))
    throw issue("choice", `${input.game} takes choice ${allowed.join(", ")}`);
}

const firstStage: Record<SeededGame, (choice: string | null) => StageAction> = {
  dice: () => "roll",
  blackjack: () => "deal",
  higherlower: (choice) => (choice ? "pair" : "show"),
};

/**
 * Accepts a play drawn from blocks. The answer says it is pending; once paid, the acceptance is recorded
 * (player, salt, game, choice and the deciding block: the chain's next one, which nobody knows yet), and
 * the draw job plays the stage when that block is out.
 */
function acceptSeeded(
  ctx: PlayContext,
  base: Pick<SeededPlay, "playId" | "playerId" | "alias" | "game" | "choice" | "salt" | "paid" | "feeUsd">,
): Promise<PlayResult> {
  const now = ctx.now();
  const accepted = (at: Date, network: string | null, blockNumber: number | null): SeededPlay => ({
    ...base,
    network,
    playedAt: at.toISOString(),
    stages: [],
    state: {},
    status: "pending",
    next: { action: firstStage[base.game](base.choice), acceptedAt: at.toISOString(), blockNumber },
    deadline: new Date(at.getTime() + BLOCK_WAIT_MS).toISOString(),
    outcome: null,
    settledAt: null,
    pointsAwarded: 0,
  });
  const lock = seededKeys.lock(base.playId);
  ctx.afterPayment(
    () =>
      withLock(ctx.store, lock, async () => {
        if (!(await loadSeeded(ctx.store, base.playId))) {
          // The acceptance time is taken before the chain is read, so the block after the head read is mined after it.
          const at = ctx.now();
          const head = await chainHead(ctx.upstream(PAYMENT_CHAIN));
          await ctx.store.claim(seededKeys.play(base.playId), accepted(at, head.network, head.number + 1), KEEP_MS);
        }
        await ctx.store.set(seededKeys.live(base.playId), true, KEEP_MS);
        await ensurePlayer(ctx.store, base.playerId, base.alias);
        const recorded = (await loadSeeded(ctx.store, base.playId))!;
        await saveRecord(
          ctx.store,
          base.playerId,
          renderSeeded(recorded, await playerOrNew(ctx.store, base.playerId, base.alias, ctx.now())),
          true,
        );
      }),
    () =>
      withLock(ctx.store, lock, async () => {
        await Promise.all([
          ctx.store.delete(seededKeys.play(base.playId)),
          ctx.store.delete(seededKeys.live(base.playId)),
        ]);
        await forgetRecord(ctx.store, base.playerId, base.playId);
      }),
  );
  return playerOrNew(ctx.store, base.playerId, base.alias, now).then((player) =>
    renderSeeded(accepted(now, null, null), player),
  );
}
