import type { Store } from "../../core/endpoint.ts";
import { keys, type Profile } from "./_points.ts";

export interface BoardRow {
  rank: number;
  alias: string;
  /** The first 12 hex characters of the player id: the full id stays with its owner (it reads promo codes). */
  player: string;
  points: number;
}

/** The top of a sorted set with each player's alias; players without points are left out. */
export async function board(store: Store, set: string, count: number): Promise<BoardRow[]> {
  const top = (await store.top(set, count)).filter((x) => x.score > 0);
  const profiles = await Promise.all(top.map((x) => store.get<Profile>(keys.profile(x.member))));
  return top.map((x, i) => ({ rank: i + 1, alias: profiles[i]?.alias ?? "?", player: x.member.slice(0, 12), points: x.score }));
}
