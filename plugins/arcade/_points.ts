import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Store } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import type { Outcome } from "./_blackjack.ts";

/** What the store keeps per player besides the atomic counters (points live in counters and sorted sets). */
export interface Profile {
  alias: string;
  streak: number;
  bestStreak: number;
  wins: number;
  plays: number;
}

export interface PlayerView extends Profile {
  id: string;
  points: number;
  weekPoints: number;
}

const dayMs = 86_400_000;
const keepMs = 35 * dayMs;
export const WIN_POINTS = 10;
/** From this streak on, a win counts double. */
export const DOUBLE_FROM_STREAK = 3;

export const playerIdOf = (alias: string, secret: string) => createHash("sha256").update(`${alias}|${secret}`).digest("hex");

/** Monday 00:00 UTC of the ISO week holding `at`, as YYYY-MM-DD: the key of that week's board. */
export function weekOf(at: Date): string {
  const day = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day)).toISOString().slice(0, 10);
}

export const previousWeek = (week: string) => weekOf(new Date(Date.parse(week) - dayMs));
export const weekEnd = (week: string) => new Date(Date.parse(week) + 7 * dayMs).toISOString();

export const keys = {
  profile: (id: string) => `arcade:player:${id}`,
  points: (id: string) => `arcade:points:${id}`,
  weekPoints: (week: string, id: string) => `arcade:week-points:${week}:${id}`,
  allTimeBoard: "arcade:board:all",
  weekBoard: (week: string) => `arcade:board:week:${week}`,
  lock: (id: string) => `arcade:lock:${id}`,
  awarded: (playId: string) => `arcade:awarded:${playId}`,
};

/**
 * Runs `work` while holding the player's lock, so one player's profile changes one play at a time across
 * instances. The lock expires by itself if its holder dies.
 */
export async function withPlayerLock<T>(store: Store, id: string, work: () => Promise<T>): Promise<T> {
  const token = randomUUID();
  for (let attempt = 0; !(await store.claim(keys.lock(id), token, 10_000)); attempt++) {
    if (attempt >= 400) throw unavailable("This player is busy with other plays; try again", 1);
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    if ((await store.get(keys.lock(id))) === token) await store.delete(keys.lock(id));
  }
}

export async function playerView(store: Store, id: string, now: Date): Promise<PlayerView | undefined> {
  const profile = await store.get<Profile>(keys.profile(id));
  if (!profile) return undefined;
  const [points, weekPoints] = await Promise.all([store.get<number>(keys.points(id)), store.get<number>(keys.weekPoints(weekOf(now), id))]);
  return { id, ...profile, points: points ?? 0, weekPoints: weekPoints ?? 0 };
}

export async function ensurePlayer(store: Store, id: string, alias: string, now: Date): Promise<PlayerView> {
  await store.claim(keys.profile(id), { alias, streak: 0, bestStreak: 0, wins: 0, plays: 0 } satisfies Profile);
  return (await playerView(store, id, now))!;
}

export interface Award {
  pointsAwarded: number;
  streakActive: number;
  player: PlayerView;
}

/**
 * Counts one finished play: exactly once per play id (a claim), under the player's lock. A win earns 10
 * points, 20 once the streak reaches 3; a loss ends the streak; a push leaves it as it was. Points count in
 * the week they are awarded. Undefined when this play was already counted.
 */
export async function award(store: Store, play: { playId: string; playerId: string; alias: string; outcome: Outcome }, now: Date): Promise<Award | undefined> {
  const { playId, playerId: id, alias, outcome } = play;
  return withPlayerLock(store, id, async () => {
    if (!(await store.claim(keys.awarded(playId), now.toISOString(), 400 * dayMs))) return undefined;
    const before = (await store.get<Profile>(keys.profile(id))) ?? { alias, streak: 0, bestStreak: 0, wins: 0, plays: 0 };
    const streak = outcome === "win" ? before.streak + 1 : outcome === "loss" ? 0 : before.streak;
    const pointsAwarded = outcome === "win" ? (streak >= DOUBLE_FROM_STREAK ? 2 * WIN_POINTS : WIN_POINTS) : 0;
    const profile: Profile = {
      alias,
      streak,
      bestStreak: Math.max(before.bestStreak, streak),
      wins: before.wins + (outcome === "win" ? 1 : 0),
      plays: before.plays + 1,
    };
    await store.set(keys.profile(id), profile);
    const week = weekOf(now);
    const [points, weekPoints] = await Promise.all([
      store.increment(keys.points(id), pointsAwarded),
      store.increment(keys.weekPoints(week, id), pointsAwarded, keepMs),
      pointsAwarded ? store.rank(keys.allTimeBoard, id, pointsAwarded) : undefined,
      pointsAwarded ? store.rank(keys.weekBoard(week), id, pointsAwarded) : undefined,
    ]);
    return { pointsAwarded, streakActive: streak, player: { id, ...profile, points, weekPoints } };
  });
}
