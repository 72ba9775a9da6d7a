import type { Address } from "viem";
import type { DuelOutcome } from "./_abi.ts";
import { timeoutTx, settleTx, type Tx } from "./_calldata.ts";
import type { Duel } from "./_chain.ts";
import { compareHands, describeCard, handValue, score, shoe } from "./_shoe.ts";

const TIP_BPS = 100n;
const PHASES_WITH_DEADLINE = new Set(["open", "reveal-secrets", "commit-moves", "reveal-moves"]);

export const isExpired = (duel: Duel, chainNow: number) => PHASES_WITH_DEADLINE.has(duel.phase) && chainNow > duel.deadline;

/**
 * The outcome the contract has recorded, or the one it will record: settle's once both hands are revealed,
 * timeout's once a deadline has passed. Pending while the players still have moves to make.
 */
export function projectedOutcome(duel: Duel, chainNow: number): DuelOutcome {
  if (duel.phase === "settled") return duel.outcome;
  if (duel.phase === "ready" && duel.seed) {
    const { better } = compareHands(duel.seed, duel.hits[0], duel.hits[1]);
    return better === "tie" ? "tie" : better === "a" ? "a-wins" : "b-wins";
  }
  if (!isExpired(duel, chainNow)) return "pending";
  if (duel.phase === "open" || duel.acted.a === duel.acted.b) return "refunded";
  return duel.acted.a ? "a-wins-by-timeout" : "b-wins-by-timeout";
}

/** What each side receives for an outcome, in wei, with the contract's integer math. */
export function payouts(duel: Duel, outcome: DuelOutcome) {
  const { stake } = duel;
  const pot = 2n * stake;
  const rake = (pot * BigInt(duel.rakeBps)) / 10_000n;
  const tipEach = (stake * TIP_BPS) / 10_000n;
  const zero = { a: 0n, b: 0n, rake: 0n, tip: 0n };
  switch (outcome) {
    case "a-wins": return { ...zero, a: pot - rake, rake };
    case "b-wins": return { ...zero, b: pot - rake, rake };
    case "a-wins-by-timeout": return { ...zero, a: pot - rake - 2n * tipEach, rake, tip: 2n * tipEach };
    case "b-wins-by-timeout": return { ...zero, b: pot - rake - 2n * tipEach, rake, tip: 2n * tipEach };
    case "tie": return { ...zero, a: stake, b: stake };
    case "refunded": return duel.players[1] ? { ...zero, a: stake - tipEach, b: stake - tipEach, tip: 2n * tipEach } : { ...zero, a: stake - tipEach, tip: tipEach };
    case "pending": return zero;
  }
}

/** A revealed hand: the cards drawn from the player's side of the shoe and what they are worth. */
export function revealedHand(duel: Duel, side: "a" | "b") {
  const revealed = duel.phase === "ready" || (duel.phase === "settled" && duel.outcome !== "refunded" && !duel.outcome.endsWith("timeout"));
  if (!revealed || !duel.seed) return null;
  const hits = duel.hits[side === "a" ? 0 : 1];
  const cards = shoe(duel.seed, side === "a");
  const { total, soft } = handValue(cards, 2 + hits);
  return { hits, cards: cards.slice(0, 2 + hits).map((c) => describeCard(c).label), total, soft, bust: total > 21, score: score(cards, hits) };
}

export type NextAction = {
  action: "join" | "reveal" | "commit" | "reveal-moves" | "settle" | "timeout";
  who: "anyone" | "a" | "b" | "both";
  players: Address[];
  until: string | null;
  how: string;
  tx: Tx | null;
};

/** The exact next step, with the helper that composes it (and the transaction itself when it needs no secret). */
export function nextAction(duel: Duel, chainNow: number, escrow: Address): NextAction | null {
  const id = duel.id;
  const until = duel.deadline ? new Date(duel.deadline * 1000).toISOString() : null;
  if (duel.phase === "settled") return null;
  if (duel.phase === "ready") {
    return { action: "settle", who: "anyone", players: [], until: null, how: `GET /duel/tx?action=settle&duelId=${id}`, tx: settleTx(escrow, id) };
  }
  if (isExpired(duel, chainNow)) {
    return { action: "timeout", who: "anyone", players: [], until: null, how: `GET /duel/tx?action=timeout&duelId=${id} (the caller earns the 1% tip)`, tx: timeoutTx(escrow, id) };
  }
  if (duel.phase === "open") {
    return { action: "join", who: "anyone", players: [], until, how: `POST /v1/duel/join {"duelId":${id},"commitmentB":"<keccak256 of your secret>"} (anyone but player A)`, tx: null };
  }
  const waiting = (["a", "b"] as const).filter((side) => !duel.acted[side]);
  const who = waiting.length === 2 ? "both" : waiting[0];
  const players = waiting.map((side) => duel.players[side === "a" ? 0 : 1]).filter((p): p is Address => p !== null);
  const how = {
    "reveal-secrets": { action: "reveal" as const, how: `GET /duel/tx?action=reveal&duelId=${id}&secret=<your secret>` },
    "commit-moves": {
      action: "commit" as const,
      how: `GET /duel/seed?duelId=${id}, GET /duel/shoe?seed=<seed>&sideA=<true for player A>, choose hits, then GET /duel/tx?action=sha&duelId=${id}&player=<you>&hits=<n>&salt=<random 32 bytes> and GET /duel/tx?action=commit&duelId=${id}&commitment=<sha>`,
    },
    "reveal-moves": { action: "reveal-moves" as const, how: `GET /duel/tx?action=reveal-moves&duelId=${id}&hits=<n>&salt=<your salt>` },
  }[duel.phase as "reveal-secrets" | "commit-moves" | "reveal-moves"];
  return { ...how, who, players, until, tx: null };
}
