import type { Store } from "../../core/endpoint.ts";
import type { PlayOutcome } from "./_blackjack.js";
import { withPlayerLock } from "./_points.ts";
import type { PlayResult } from "./_schemas.ts";

const dayMs = 86_400_000;
const recentCount = 20;
const keepMs = 90 * dayMs;

export const recordKeys = {
  play: (playId: string) => `arcade:play:${playId}`,
  recent: (playerId: string) => `arcade:recent:${playerId}`,
  /** The player's plays not yet settled or void: listed by /me however many plays came after them. */
  open: (playerId: string) => `arcade:open:${playerId}`,
  pending: (playId: string) => `arcade:pending:${playId}`,
  pendingPrefix: "arcade:pending:",
  salt: (playerId: string, salt: string) => `arcade:salt:${playerId}:${salt}`,
};

/** Adds or removes a play id in one of the player's lists, once, however often it runs. */
export async function listed(
  store: Store,
  key: string,
  playerId: string,
  playId: string,
  present: boolean,
  max = Infinity,
): Promise<void> {
  await withPlayerLock(store, playerId, async () => {
    const ids = (await store.get<string[]>(key)) ?? [];
    if (ids.includes(playId) === present) return;
    await store.set(key, present ? [playId, ...ids].slice(0, max) : ids.filter((id) => id !== playId), keepMs);
  });
}

/** Saves a play's record; a new play also joins the player's recent plays, and stays on the open list until it is final. */
export async function saveRecord(store: Store, playerId: string, result: PlayResult, isNew = false): Promise<void> {
  await store.set(recordKeys.play(result.playId), result, keepMs);
  if (isNew) await listed(store, recordKeys.recent(playerId), playerId, result.playId, true, recentCount);
  const open = result.status === "pending" || result.status === "in_progress";
  await listed(store, recordKeys.open(playerId), playerId, result.playId, open);
}

/** Removes a play that was never accepted (its writes withdrawn) from the player's record. */
export async function forgetRecord(store: Store, playerId: string, playId: string): Promise<void> {
  await store.delete(recordKeys.play(playId));
  await listed(store, recordKeys.recent(playerId), playerId, playId, false);
  await listed(store, recordKeys.open(playerId), playerId, playId, false);
}

/** The open plays first (oldest first), then the recent ones, newest first. */
export async function recentPlays(store: Store, playerId: string): Promise<PlayResult[]> {
  const [open, recent] = await Promise.all([
    store.get<string[]>(recordKeys.open(playerId)),
    store.get<string[]>(recordKeys.recent(playerId)),
  ]);
  const ids = [...new Set([...(open ?? []).reverse(), ...(recent ?? [])])];
  const plays = await Promise.all(ids.map((id) => store.get<PlayResult>(recordKeys.play(id))));
  return plays.filter((p): p is PlayResult => p !== undefined);
}

export const resultFields = (outcome: PlayOutcome | null) => ({
  outcome,
  won: outcome === null ? null : outcome === "win",
});
