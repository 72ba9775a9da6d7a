import type { Store } from "../../core/endpoint.ts";
import { conflict } from "../../core/runtime/errors.ts";
import type { Outcome } from "./_blackjack.ts";
import type { LatestBlock } from "./_chain.ts";
import { ALGORITHMS, SEED_FORMULA, seedOf, type Derived } from "./_fair.js";
import { withPlayerLock } from "./_points.ts";
import type { Reference } from "./_referees.ts";
import type { Fairness, PlayResult } from "./_schemas.ts";

const dayMs = 86_400_000;
const recentCount = 20;

export const recordKeys = {
  play: (playId: string) => `arcade:play:${playId}`,
  recent: (playerId: string) => `arcade:recent:${playerId}`,
  pending: (playId: string) => `arcade:pending:${playId}`,
  pendingPrefix: "arcade:pending:",
  seed: (seedHex: string) => `arcade:seed:${seedHex}`,
};

/** A prediction waiting for its data: what the settlement job reads. */
export interface PendingPlay {
  playId: string;
  playerId: string;
  alias: string;
  game: "funding" | "candle" | "feargreed";
  choice: string;
  settlesAt: string;
  reference: Reference | null;
}

/** A play's record and, for a new play, its place in the player's recent plays: once, however often it runs. */
export async function saveRecord(store: Store, playerId: string, result: PlayResult, isNew: boolean): Promise<void> {
  await store.set(recordKeys.play(result.playId), result, 90 * dayMs);
  if (!isNew) return;
  await withPlayerLock(store, playerId, async () => {
    const recent = (await store.get<string[]>(recordKeys.recent(playerId))) ?? [];
    if (recent.includes(result.playId)) return;
    await store.set(recordKeys.recent(playerId), [result.playId, ...recent].slice(0, recentCount), 90 * dayMs);
  });
}

export async function recentPlays(store: Store, playerId: string): Promise<PlayResult[]> {
  const ids = (await store.get<string[]>(recordKeys.recent(playerId))) ?? [];
  const plays = await Promise.all(ids.map((id) => store.get<PlayResult>(recordKeys.play(id))));
  return plays.filter((p): p is PlayResult => p !== undefined);
}

const saltReused = () => conflict("salt_reused", "This salt was already played on this block; choose a new salt");

/** The seed of a new play, refused when it was played already: the same salt on the same block would replay a known result. */
export async function freshSeed(store: Store, block: LatestBlock, salt: string): Promise<string> {
  const seedHex = await seedOf(block.hash, salt);
  if ((await store.get(recordKeys.seed(seedHex))) !== undefined) throw saltReused();
  return seedHex;
}

/**
 * Takes the seed for a paid play, so it plays once. A second run for the same play finds it its own; a play
 * of the same salt that was paid first makes this one fail (and be credited).
 */
export async function claimSeed(store: Store, seedHex: string, playId: string): Promise<void> {
  if (await store.claim(recordKeys.seed(seedHex), playId, 30 * dayMs)) return;
  if ((await store.get(recordKeys.seed(seedHex))) !== playId) throw saltReused();
}

export function fairnessOf(block: LatestBlock, salt: string, seedHex: string, game: Fairness["game"], derived: Derived): Fairness {
  return {
    blockHash: block.hash,
    blockNumber: block.number,
    network: block.network,
    salt,
    seed: SEED_FORMULA,
    seedHex,
    algorithm: ALGORITHMS[game],
    verify: "Run `npm run verify-play -- '<this fairness JSON>'`, press Verify on /arcade, or recompute seedHex and the draws by hand " +
      "from blockHash and salt as `algorithm` says; look blockHash up at blockNumber on the network to see it is the chain's",
    game,
    derived: derived as Fairness["derived"],
  };
}

export const resultFields = (outcome: Outcome | null) => ({ outcome, won: outcome === null ? null : outcome === "win" });
