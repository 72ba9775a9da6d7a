import type { Store } from "../../core/endpoint.ts";
import { keys, type Profile } from "./_points.ts";

export interface BoardRow {
  /** Shared by tied players: two at 2 points above the rest are both 2nd, the next is 4th. */
  rank: number;
  alias: string;
  /** The first 12 hex characters of the player id: the full id stays with its owner. */
  player: string;
  points: number;
}

export interface Ranked {
  member: string;
  score: number;
  rank: number;
  /** How many players share this rank. */
  tied: number;
}

/** Players with points down to place `count`, every player tied with the last place included. */
export async function ranked(store: Store, set: string, count: number): Promise<Ranked[]> {
  let top: { member: string; score: number }[] = [];
  for (let asked = count; ; asked *= 2) {
    top = (await store.top(set, asked)).filter((x) => x.score > 0);
    if (top.length < asked || top[asked - 1].score !== top[count - 1].score) break;
  }
  const rows = top.map((x) => ({ ...x, rank: 1 + top.filter((y) => y.score > x.score).length }));
  return rows
    .filter((x) => x.rank <= count)
    .map((x) => ({ ...x, tied: rows.filter((y) => y.score === x.score).length }));
}

/** A board with each player's alias; players without points are left out. */
export async function board(store: Store, set: string, count: number): Promise<BoardRow[]> {
  const top = await ranked(store, set, count);
  const profiles = await Promise.all(top.map((x) => store.get<Profile>(keys.profile(x.member))));
  return top.map((x, i) => ({
    rank: x.rank,
    alias: profiles[i]?.alias ?? "?",
    player: x.member.slice(0, 12),
    points: x.score,
  }));
}

/**
 * A prize in atomic units: tied players split the prizes of the places they take together (two tied 2nd
 * share the 2nd and 3rd prizes), rounded down to the unit.
 */
export function prizeOf(row: Ranked, prizes: bigint[]): bigint {
  let sum = 0n;
  for (let place = row.rank; place < row.rank + row.tied && place <= prizes.length; place++) sum += prizes[place - 1];
  return sum / BigInt(row.tied);
}
