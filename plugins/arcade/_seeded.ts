import type { Store } from "../../core/endpoint.ts";
import { totalOf, type PlayOutcome } from "./_blackjack.js";
import type { Coin } from "./_coins.ts";
import { ALGORITHMS, SEED_FORMULA, type DrawState } from "./_fair.js";
import type { PlayerView } from "./_points.ts";
import { resultFields } from "./_records.ts";
import type { Fairness, PlayResult, Stage } from "./_schemas.ts";

export type SeededGame = "dice" | "higherlower" | "blackjack";
export type StageAction = Stage["action"];

/** A stage accepted and recorded, waiting for the first block mined after it. */
export interface NextStage {
  action: StageAction;
  acceptedAt: string;
  /** Null only in the answer that accepts the stage: the number is fixed when the acceptance is recorded. */
  blockNumber: number | null;
  /** The move that asked for it, so a move's effect run again finds it its own. */
  moveId?: string;
}

/** A play drawn from block hashes, stage by stage; its record (PlayResult) is rendered from it. */
export interface SeededPlay {
  playId: string;
  playerId: string;
  alias: string;
  game: SeededGame;
  choice: string | null;
  salt: string;
  /** Paid plays count for the promo codes and are credited back when void. */
  paid: boolean;
  feeUsd: string;
  network: string | null;
  playedAt: string;
  stages: Stage[];
  next: NextStage | null;
  state: DrawState;
  status: "pending" | "in_progress" | "settled" | "void";
  deadline: string;
  outcome: PlayOutcome | null;
  settledAt: string | null;
  pointsAwarded: number;
  shown?: Coin;
  hidden?: Coin;
  note?: string;
  void?: { reason: string; refundUsd: string | null; refund: string };
}

const minuteMs = 60_000;
/** How long a stage may wait for its block before the play is void (the chain stalled, or our reads of it failed). */
export const BLOCK_WAIT_MS = 5 * minuteMs;
/** How long a hand or a shown coin waits for the player's move before it counts as a loss. */
export const MOVE_WAIT_MS = 10 * minuteMs;
export const KEEP_MS = 90 * 86_400_000;

export const seededKeys = {
  play: (playId: string) => `arcade:seeded:${playId}`,
  live: (playId: string) => `arcade:live:${playId}`,
  livePrefix: "arcade:live:",
  lock: (playId: string) => `arcade:play-lock:${playId}`,
  move: (playId: string, index: number) => `arcade:move:${playId}:${index}`,
};

export const saveSeeded = (store: Store, play: SeededPlay) => store.set(seededKeys.play(play.playId), play, KEEP_MS);
export const loadSeeded = (store: Store, playId: string) => store.get<SeededPlay>(seededKeys.play(playId));

const VERIFY =
  "Press Verify on /arcade, run `npm run verify-play -- --rpc <your node of the network> '<this fairness JSON>'`, or by hand: for each stage " +
  "recompute seedHex from blockHash and salt and the draws as `algorithm` says, and look the block up by number on the network: its hash must be blockHash " +
  "and it must be mined after the stage's acceptedAt";

function fairnessOf(play: SeededPlay): Fairness | null {
  const [first] = play.stages;
  if (!first) return null;
  const drawOutcome =
    play.game === "higherlower" ? null : play.game === "dice" ? play.outcome : (play.state.hand?.outcome ?? null);
  const derived =
    play.game === "dice"
      ? { dice: play.state.dice }
      : play.game === "blackjack"
        ? { cards: play.state.used }
        : { shown: play.state.shown, hidden: play.state.hidden };
  return {
    network: play.network!,
    salt: play.salt,
    seed: SEED_FORMULA,
    algorithm: ALGORITHMS[play.game],
    verify: VERIFY,
    game: play.game,
    choice: play.choice,
    outcome: drawOutcome,
    blockHash: first.blockHash,
    blockNumber: first.blockNumber,
    seedHex: first.seedHex,
    acceptedAt: first.acceptedAt,
    stages: play.stages,
    derived: JSON.parse(JSON.stringify(derived)),
  };
}

function awaitingOf(play: SeededPlay): PlayResult["awaiting"] {
  if (play.status === "pending" && play.next) {
    return {
      what: "block",
      stage: play.next.action,
      decidingBlock: play.next.blockNumber,
      deadline: play.deadline,
      next: `Drawn from the first block of ${play.network ?? "the payment network"} mined after this stage was recorded: read it with GET /v1/arcade/me?id=${play.playerId}`,
    };
  }
  if (play.status !== "in_progress") return null;
  const moves = play.game === "blackjack" ? "hit or stand" : "higher or lower";
  return {
    what: "move",
    stage: null,
    decidingBlock: null,
    deadline: play.deadline,
    next: `POST /v1/arcade/move {"playId":"${play.playId}","move":"<${moves.replace(" or ", "|")}>","player":{...}} (free); no move by the deadline counts as a loss`,
  };
}

function gameFields(play: SeededPlay): Partial<PlayResult> {
  const { state } = play;
  if (play.game === "dice") return state.dice ? { dice: state.dice, sum: state.dice[0] + state.dice[1] } : {};
  if (play.game === "higherlower") {
    return { ...(play.shown ? { shown: play.shown } : {}), ...(play.hidden ? { hidden: play.hidden } : {}) };
  }
  const hand = state.hand;
  if (!hand) return { inProgress: play.status !== "settled" && play.status !== "void" };
  const finished = hand.outcome !== null;
  return {
    hand: hand.player,
    handTotal: totalOf(hand.player).total,
    dealerUpcard: hand.dealer[0],
    dealerHand: hand.dealer,
    dealerTotal: finished ? totalOf(hand.dealer).total : null,
    inProgress: !finished && play.status !== "void",
  };
}

/** The play as its player sees it: in the answer, in /me, and as the stored record. */
export function renderSeeded(play: SeededPlay, player: PlayerView): PlayResult {
  return {
    playId: play.playId,
    game: play.game,
    status: play.status,
    choice: play.choice,
    playedAt: play.playedAt,
    settledAt: play.settledAt,
    ...resultFields(play.outcome),
    pointsAwarded: play.pointsAwarded,
    streakActive: player.streak,
    player,
    awaiting: awaitingOf(play),
    ...(play.void ? { void: play.void } : {}),
    ...(play.note ? { note: play.note } : {}),
    ...gameFields(play),
    fairness: fairnessOf(play),
  };
}
