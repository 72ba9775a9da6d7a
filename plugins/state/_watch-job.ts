import type { JobContext, JobDef } from "../../core/endpoint.ts";
import { attemptDelivery, queueDelivery, sendDueDeliveries } from "./_deliveries.ts";
import { observe, type Observation } from "./_observe.ts";
import { listedDeliveries, saveWatch, type Watch } from "./_watches.ts";
import { isoAfter, stateKeys } from "./_wallet.ts";

/** A check in flight is leased this long (longer than the egress time cap); after a crash the next tick takes it over. */
const checkLeaseMs = 300_000;

/**
 * Checks every watch that is due. A check is claimed per watch and due time in the shared store, so on
 * several instances (and across overlapping ticks) each due check runs once; what it saw and the deliveries
 * it queued are in the store, so a restarted instance carries on where the last one stopped.
 */
export async function checkDueWatches(ctx: JobContext): Promise<number> {
  let checked = 0;
  for (const key of await ctx.store.keys(stateKeys.watchPrefix)) {
    if (ctx.signal.aborted) break;
    const watch = await ctx.store.get<Watch>(key);
    const now = ctx.now().getTime();
    if (!watch || Date.parse(watch.expiresAt) <= now || Date.parse(watch.nextCheckAt) > now) continue;
    if (
      !(await ctx.store.claim(stateKeys.checkLease(watch.id, watch.nextCheckAt), ctx.now().toISOString(), checkLeaseMs))
    )
      continue;
    const current = await ctx.store.get<Watch>(key);
    if (current?.nextCheckAt !== watch.nextCheckAt) continue;
    await checkWatch(ctx, current);
    checked++;
  }
  return checked;
}

async function checkWatch(ctx: JobContext, watch: Watch): Promise<void> {
  const at = ctx.now();
  let seen: Observation | undefined;
  let error: string | null = null;
  try {
    seen = await observe(ctx.egress, watch, at);
  } catch (err) {
    if (ctx.signal.aborted) return;
    error = (err as Error).message;
  }
  const changed = seen !== undefined && seen.fingerprint !== watch.last.fingerprint;
  const next: Watch = {
    ...watch,
    checks: watch.checks + 1,
    lastCheckedAt: at.toISOString(),
    lastError: error,
    nextCheckAt: nextDue(watch, at),
    last: seen ?? watch.last,
    changes: watch.changes + (changed ? 1 : 0),
    lastChangedAt: changed ? at.toISOString() : watch.lastChangedAt,
  };
  if (!changed) return saveWatch(ctx.store, next, at);
  const delivery = await queueDelivery(ctx, {
    watchId: watch.id,
    url: watch.webhook,
    secret: watch.secret,
    event: "watch.changed",
    payload: {
      watchId: watch.id,
      url: watch.url,
      mode: watch.mode,
      selector: watch.selector,
      previous: watch.last,
      current: seen,
    },
  });
  await saveWatch(
    ctx.store,
    { ...next, deliveries: [delivery.id, ...watch.deliveries].slice(0, listedDeliveries) },
    at,
  );
  await attemptDelivery(ctx, delivery);
}

/** The next due time on the watch's own schedule; after downtime, one interval from now rather than a burst of catch-up checks. */
function nextDue(watch: Watch, at: Date): string {
  const scheduled = Date.parse(watch.nextCheckAt) + watch.interval * 1000;
  return scheduled > at.getTime() ? new Date(scheduled).toISOString() : isoAfter(at, watch.interval * 1000);
}

export const watchJob: JobDef = {
  name: "state-watches",
  everyMs: 15_000,
  async run(ctx) {
    await sendDueDeliveries(ctx);
    await checkDueWatches(ctx);
  },
};
