import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Store } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import { once } from "../_shared/once.ts";
import type { PlayOutcome } from "./_blackjack.js";

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

export const playerIdOf = (alias: string, secret: string) =>
  createHash("sha256").update(`${alias}|${secret}`).digest("hex");

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
  /** Points from paid plays only: the promo codes rank on it. */
  paidWeekBoard: (week: string) => `arcade:board:paid-week:${week}`,
  lock: (id: string) => `arcade:lock:${id}`,
  award: (playId: string) => `arcade:award:${playId}`,
};

/**
 * Runs `work` while holding the lock `key`, so what it guards changes one step at a time across instances.
 * The lock expires by itself if its holder dies.
 */
export async function withLock<T>(store: Store, key: string, work: () => Promise<T>): Promise<T> {
  const token = randomUUID();
  for (let attempt = 0; !(await store.claim(key, token, 10_000)); attempt++) {
    if (attempt >= 400) throw unavailable("This play or player is busy; try again", 1);
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    await store.deleteIf(key, token);
  }
}

/** One player's profile changes one play at a time. */
export const withPlayerLock = <T>(store: Store, id: string, work: () => Promise<T>) =>
  withLock(store, keys.lock(id), work);

export async function playerView(store: Store, id: string, now: Date): Promise<PlayerView | undefined> {
  const profile = await store.get<Profile>(keys.profile(id));
  if (!profile) return undefined;
  const [points, weekPoints] = await Promise.all([
    store.get<number>(keys.points(id)),
    store.get<number>(keys.weekPoints(weekOf(now), id)),
  ]);
  return { id, ...profile, points: points ?? 0, weekPoints: weekPoints ?? 0 };
}

const newProfile = (alias: string): Profile => ({ alias, streak: 0, bestStreak: 0, wins: 0, plays: 0 });

/** The player as stored, or a new player's zeros: reading writes nothing (a play registers its player once paid for). */
export async function playerOrNew(store: Store, id: string, alias: string, now: Date): Promise<PlayerView> {
  return (await playerView(store, id, now)) ?? { id, ...newProfile(alias), points: 0, weekPoints: 0 };
}

/** Registers a player once (a claim, so running it again changes nothing). */
export async function ensurePlayer(store: Store, id: string, alias: string): Promise<void> {
  await store.claim(keys.profile(id), newProfile(alias));
}

export interface Award {
  pointsAwarded: number;
  streakActive: number;
  player: PlayerView;
}

/** A win extends the streak, a loss ends it, a push leaves it as it was. */
function profileAfter(before: Profile, alias: string, outcome: PlayOutcome): Profile {
  const streak = outcome === "win" ? before.streak + 1 : outcome === "loss" ? 0 : before.streak;
  return {
    alias,
    streak,
    bestStreak: Math.max(before.bestStreak, streak),
    wins: before.wins + (outcome === "win" ? 1 : 0),
    plays: before.plays + 1,
  };
}

/**
 * What a finished play adds to the player as they stand, without writing it: a win earns 10 points, 20 once
 * the streak reaches 3. Points count in the week they are awarded. The answer shows this before it is paid for.
 */
export function scoreOf(player: PlayerView, outcome: PlayOutcome): Award {
  const profile = profileAfter(player, player.alias, outcome);
  const pointsAwarded = outcome === "win" ? (profile.streak >= DOUBLE_FROM_STREAK ? 2 * WIN_POINTS : WIN_POINTS) : 0;
  return {
    pointsAwarded,
    streakActive: profile.streak,
    player: {
      ...player,
      ...profile,
      points: player.points + pointsAwarded,
      weekPoints: player.weekPoints + pointsAwarded,
    },
  };
}

interface AwardPlan {
  pointsAwarded: number;
  week: string;
}

/**
 * Counts one finished play, exactly once per play id however often it runs (a job run again, two workers).
 * Its points are fixed by the first run, from the streak as it stands; then the profile, the counters and the
 * boards are each written once, under the player's lock, so plays of one player finishing together update
 * the streak one after another. Only paid plays count on the paid board the promo codes rank. Undefined
 * when an earlier run had fixed the points (this run only completes what that one left; `awarded` reads them).
 */
export async function award(
  store: Store,
  play: { playId: string; playerId: string; alias: string; outcome: PlayOutcome; paid?: boolean },
  now: Date,
): Promise<Award | undefined> {
  const { playId, playerId: id, alias, outcome } = play;
  return withPlayerLock(store, id, async () => {
    const wanted: AwardPlan = {
      pointsAwarded: scoreOf(await playerOrNew(store, id, alias, now), outcome).pointsAwarded,
      week: weekOf(now),
    };
    const first = await store.claim(keys.award(playId), wanted, 400 * dayMs);
    const { pointsAwarded, week } = first ? wanted : (await store.get<AwardPlan>(keys.award(playId)))!;
    const step = (name: string, write: () => Promise<unknown>) =>
      once(store, `${keys.award(playId)}:${name}`, 400 * dayMs, write);
    await step("profile", async () =>
      store.set(
        keys.profile(id),
        profileAfter((await store.get<Profile>(keys.profile(id))) ?? newProfile(alias), alias, outcome),
      ),
    );
    if (pointsAwarded) {
      await step("points", () => store.increment(keys.points(id), pointsAwarded));
      await step("week-points", () => store.increment(keys.weekPoints(week, id), pointsAwarded, keepMs));
      await step("board", () => store.rank(keys.allTimeBoard, id, pointsAwarded));
      await step("week-board", () => store.rank(keys.weekBoard(week), id, pointsAwarded));
      if (play.paid) await step("paid-week-board", () => store.rank(keys.paidWeekBoard(week), id, pointsAwarded));
    }
    if (!first) return undefined;
    const player = (await playerView(store, id, now))!;
    return { pointsAwarded, streakActive: player.streak, player };
  });
}

/** The points a play was awarded, once `award` has run for it. */
export const awarded = async (store: Store, playId: string) =>
  (await store.get<AwardPlan>(keys.award(playId)))?.pointsAwarded ?? 0;
