import type { JobContext, JobDef } from "../../core/endpoint.ts";
import { award } from "./_points.ts";
import type { PendingPlay } from "./_predict.ts";
import { recordKeys, resultFields, saveRecord } from "./_records.ts";
import { outcomeOf, refereeOf, refereeUpstreams, type Observation } from "./_referees.ts";
import { refundOnce, refundText } from "./_refund.ts";
import type { PlayResult } from "./_schemas.ts";

const leaseMs = 60_000;

/**
 * Settles due predictions against the real data. Each play is leased by a claim while it is read, and
 * counted at most once (the award's own claim), so overlapping ticks and restarts never double or lose it;
 * a play whose data is not out yet waits for a later tick, until its deadline makes it void.
 */
export async function settleDuePlays(ctx: JobContext): Promise<number> {
  const now = ctx.now();
  const observations = new Map<string, Promise<Observation | undefined>>();
  let settled = 0;
  for (const key of await ctx.store.keys(recordKeys.pendingPrefix)) {
    if (ctx.signal.aborted) break;
    const pending = await ctx.store.get<PendingPlay>(key);
    if (!pending || Date.parse(pending.settlesAt) > now.getTime()) continue;
    const lease = `arcade:settling:${pending.playId}`;
    if (!(await ctx.store.claim(lease, now.toISOString(), leaseMs))) continue;
    try {
      if (Date.parse(pending.deadline) < now.getTime()) {
        await voidPrediction(ctx, pending);
        continue;
      }
      const referee = refereeOf(pending.game, pending.venue);
      // Plays that settle at the same moment share one read of the data.
      const read = `${pending.game}:${pending.venue ?? ""}:${pending.settlesAt}:${pending.reference?.at ?? ""}`;
      if (!observations.has(read)) {
        observations.set(
          read,
          referee.observe(ctx.upstream(referee.upstream), new Date(pending.settlesAt), pending.reference ?? undefined),
        );
      }
      const seen = await observations.get(read)!;
      if (!seen) continue;
      await settle(ctx, pending, seen);
      settled++;
    } catch (err) {
      ctx.log.warn({ err, playId: pending.playId, game: pending.game }, "arcade settlement will retry");
    } finally {
      await ctx.store.delete(lease);
    }
  }
  return settled;
}

async function settle(ctx: JobContext, pending: PendingPlay, seen: Observation): Promise<void> {
  const outcome = outcomeOf(refereeOf(pending.game, pending.venue), pending.choice, seen);
  const counted = await award(ctx.store, { ...pending, outcome }, ctx.now());
  const record = await ctx.store.get<PlayResult>(recordKeys.play(pending.playId));
  if (counted && record && record.status === "pending") {
    await saveRecord(ctx.store, pending.playerId, {
      ...record,
      status: "settled",
      settledAt: ctx.now().toISOString(),
      ...resultFields(outcome),
      awaiting: null,
      pointsAwarded: counted.pointsAwarded,
      streakActive: counted.streakActive,
      player: counted.player,
      referee: record.referee && { ...record.referee, observed: seen.observed },
    });
  }
  await ctx.store.delete(recordKeys.pending(pending.playId));
}

/** The data never came: the play is void, its fee credited back once, and nobody asks for that data again. */
async function voidPrediction(ctx: JobContext, pending: PendingPlay): Promise<void> {
  const refundUsd = await refundOnce(ctx.store, ctx.credits, pending);
  const record = await ctx.store.get<PlayResult>(recordKeys.play(pending.playId));
  if (record && record.status === "pending") {
    const reason = `${refereeOf(pending.game, pending.venue).source}: no data for ${pending.settlesAt} by the deadline ${pending.deadline}`;
    await saveRecord(ctx.store, pending.playerId, {
      ...record,
      status: "void",
      awaiting: null,
      void: { reason, refundUsd, refund: refundText(refundUsd) },
    });
  }
  await ctx.store.delete(recordKeys.pending(pending.playId));
}

export const settleJob: JobDef = {
  name: "arcade-settle",
  everyMs: 10_000,
  upstreams: refereeUpstreams,
  run: async (ctx) => void (await settleDuePlays(ctx)),
};
