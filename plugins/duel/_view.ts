import type { Address } from "viem";
import type { DuelOutcome } from "./_abi.ts";
import { timeoutTx, settleTx, type Tx } from "./_calldata.ts";
import type { Duel } from "./_chain.ts";
import { compareHands, describeCard, handValue, score, shoe } from "./_shoe.ts";

const TIP_BPS = 100n;
const PHASES_WITH_DEADLINE = new Set(["open", "reveal-secrets", "commit-moves", "reveal-moves"]);

export const isExpired = (duel: Duel, chainNow: number) =>
  PHASES_WITH_DEADLINE.has(duel.phase) && chainNow > duel.deadline;

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

/**
 * What each side receives for an outcome, in wei, with the contract's integer math. An open duel's refund
 * shows the 1% tip a caller other than player A earns; after a join no timeout pays a tip.
 */
export function payouts(duel: Duel, outcome: DuelOutcome) {
  const { stake } = duel;
  const pot = 2n * stake;
  const rake = (pot * BigInt(duel.rakeBps)) / 10_000n;
  const tip = (stake * TIP_BPS) / 10_000n;
  const zero = { a: 0n, b: 0n, rake: 0n, tip: 0n };
  switch (outcome) {
    case "a-wins":
    case "a-wins-by-timeout":
      return { ...zero, a: pot - rake, rake };
    case "b-wins":
    case "b-wins-by-timeout":
      return { ...zero, b: pot - rake, rake };
    case "tie":
      return { ...zero, a: stake, b: stake };
    case "refunded":
      return duel.players[1] ? { ...zero, a: stake, b: stake } : { ...zero, a: stake - tip, tip };
    case "cancelled":
      return { ...zero, a: stake };
    case "pending":
      return zero;
  }
}

/** A revealed hand: the cards drawn from the player's side of the shoe and what they are worth. */
export function revealedHand(duel: Duel, side: "a" | "b") {
  const revealed =
    duel.phase === "ready" || (duel.phase === "settled" && ["a-wins", "b-wins", "tie"].includes(duel.outcome));
  if (!revealed || !duel.seed) return null;
  const hits = duel.hits[side === "a" ? 0 : 1];
  const cards = shoe(duel.seed, side === "a");
  const { total, soft } = handValue(cards, 2 + hits);
  return {
    hits,
    cards: cards.slice(0, 2 + hits).map((c) => describeCard(c).label),
    total,
    soft,
    bust: total > 21,
    score: score(cards, hits),
  };
}

export type NextAction = {
  action: "join" | "cancel" | "reveal" | "commit" | "reveal-moves" | "settle" | "timeout";
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
    return {
      action: "settle",
      who: "anyone",
      players: [],
      until: null,
      how: `GET /duel/tx?action=settle&duelId=${id}`,
      tx: settleTx(escrow, id),
    };
  }
  if (isExpired(duel, chainNow)) {
    const how =
      duel.phase === "open"
        ? `GET /duel/tx?action=timeout&duelId=${id} (a caller other than player A earns 1% of the stake; player A may cancel instead, for all of it)`
        : `GET /duel/tx?action=timeout&duelId=${id} (no tip: the player who acted wins the pot minus the rake; if neither did, both stakes come back in full)`;
    return { action: "timeout", who: "anyone", players: [], until: null, how, tx: timeoutTx(escrow, id) };
  }
  if (duel.phase === "open") {
    return {
      action: "join",
      who: "anyone",
      players: [],
      until,
      how: `POST /v1/duel/join {"duelId":${id},"commitmentB":"<keccak256 of your 32-byte secret, computed on your machine>"} (anyone but player A; until then player A may cancel: GET /duel/tx?action=cancel&duelId=${id})`,
      tx: null,
    };
  }
  const waiting = (["a", "b"] as const).filter((side) => !duel.acted[side]);
  const who = waiting.length === 2 ? "both" : waiting[0];
  const players = waiting.map((side) => duel.players[side === "a" ? 0 : 1]).filter((p): p is Address => p !== null);
  const how = {
    "reveal-secrets": {
      action: "reveal" as const,
      how: `GET /duel/tx?action=reveal&duelId=${id} answers the data prefix; append your 32-byte secret on your machine and send it`,
    },
    "commit-moves": {
      action: "commit" as const,
      how:
        `GET /duel/seed?duelId=${id}, GET /duel/shoe?seed=<seed>&sideA=<true for player A>, choose hits, compute keccak256(abi.encodePacked(uint256 duelId, address you, uint8 hits, bytes32 salt)) ` +
        `on your machine with a random salt, then GET /duel/tx?action=commit&duelId=${id}&commitment=<that hash>`,
    },
    "reveal-moves": {
      action: "reveal-moves" as const,
      how: `GET /duel/tx?action=reveal-moves&duelId=${id} answers the data prefix; append your hits (32 bytes) and salt on your machine and send it`,
    },
  }[duel.phase as "reveal-secrets" | "commit-moves" | "reveal-moves"];
  return { ...how, who, players, until, tx: null };
}
