import { ensurePlayer, playerOrNew } from "./_points.ts";
import { forgetRecord, recordKeys, resultFields, saveRecord } from "./_records.ts";
import { refereeOf, type FundingVenue, type PredictionGame, type Reference } from "./_referees.ts";
import type { PlayResult } from "./_schemas.ts";
import type { Fee, PlayContext } from "./_play.ts";

/** A prediction waiting for its data: what the settlement job reads. */
export interface PendingPlay {
  playId: string;
  playerId: string;
  alias: string;
  game: PredictionGame;
  choice: string;
  settlesAt: string;
  /** Past it the play is void, its fee credited back, and the job stops asking. */
  deadline: string;
  reference: Reference | null;
  /** The venue a funding play is judged by (plays accepted before venues were configurable: Binance). */
  venue?: FundingVenue;
  paid: boolean;
  feeUsd: string;
}

const dayMs = 86_400_000;

/** Accepts a prediction: the referee's data after `settlesAt` decides it; the job reads it. */
export async function startPrediction(
  ctx: PlayContext,
  play: { playId: string; playerId: string; alias: string; salt: string; game: PredictionGame; choice: string } & Fee,
): Promise<PlayResult> {
  const venue = play.game === "funding" ? ctx.settings.fundingVenue : undefined;
  const referee = refereeOf(play.game, venue);
  const now = ctx.now();
  const reference = referee.reference ? await referee.reference(ctx.upstream(referee.upstream)) : undefined;
  const settlesAt = referee.settlesAt(now, reference);
  const deadline = new Date(settlesAt.getTime() + referee.graceMs).toISOString();
  const pending: PendingPlay = {
    playId: play.playId,
    playerId: play.playerId,
    alias: play.alias,
    game: play.game,
    choice: play.choice,
    settlesAt: settlesAt.toISOString(),
    deadline,
    reference: reference ?? null,
    ...(venue ? { venue } : {}),
    paid: play.paid,
    feeUsd: play.usd,
  };
  const player = await playerOrNew(ctx.store, play.playerId, play.alias, now);
  const result: PlayResult = {
    playId: play.playId,
    game: play.game,
    status: "pending",
    choice: play.choice,
    playedAt: now.toISOString(),
    settledAt: null,
    ...resultFields(null),
    pointsAwarded: 0,
    streakActive: player.streak,
    player,
    awaiting: {
      what: "data",
      stage: null,
      decidingBlock: null,
      deadline,
      next: `Settles from ${referee.source} after ${pending.settlesAt} (GET /v1/arcade/me?id=${play.playerId}); without that data by the deadline it is void and its fee credited back`,
    },
    referee: {
      source: referee.source,
      url: referee.url,
      settlesAt: pending.settlesAt,
      reference: reference ?? null,
      observed: null,
    },
    fairness: null,
  };
  ctx.afterPayment(
    async () => {
      await ensurePlayer(ctx.store, play.playerId, play.alias);
      await saveRecord(ctx.store, play.playerId, result, true);
      await ctx.store.set(recordKeys.pending(play.playId), pending, Date.parse(deadline) - now.getTime() + dayMs);
    },
    async () => {
      await ctx.store.delete(recordKeys.pending(play.playId));
      await forgetRecord(ctx.store, play.playerId, play.playId);
    },
  );
  return result;
}
