import * as v from "valibot";

export const GAMES = ["dice", "blackjack", "funding", "candle", "feargreed", "higherlower"] as const;
export type Game = (typeof GAMES)[number];
export const CHOICES = {
  dice: ["over", "under", "seven"],
  funding: ["positive", "negative"],
  candle: ["green", "red"],
  feargreed: ["greed", "fear"],
  higherlower: ["higher", "lower"],
} as const;
export const ACTIONS = ["deal", "hit", "stand"] as const;
export const MOVES = ["hit", "stand", "higher", "lower"] as const;
export const STAGES = ["roll", "pair", "show", "choose", "deal", "hit", "stand"] as const;
const allChoices = [...new Set(Object.values(CHOICES).flat())];

const Hex64 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex characters"));
const BlockHash = v.pipe(v.string(), v.regex(/^0x[0-9a-f]{64}$/));
export const PlayerId = v.pipe(Hex64, v.description("Player id: hex SHA-256 of `alias|secret`"));
const Int = v.pipe(v.number(), v.integer());
const Iso = v.pipe(v.string(), v.isoTimestamp());

export const PlayerKey = v.pipe(
  v.object({
    alias: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(32),
      v.regex(/^[A-Za-z0-9 _.-]+$/, "ASCII letters, digits, spaces, _ . - only"),
      v.description("Shown on the leaderboard"),
    ),
    secret: v.pipe(
      v.string(),
      v.minLength(8),
      v.maxLength(128),
      v.description("The account key; never stored, only hashed into the id"),
    ),
  }),
  v.description("The player; id = SHA-256(alias|secret)"),
);

export const PlayInput = v.object({
  game: v.pipe(v.picklist(GAMES), v.description("dice, blackjack, funding, candle, feargreed or higherlower")),
  choice: v.optional(
    v.pipe(
      v.picklist(allChoices),
      v.description(
        "dice over (8-12), under (2-6) or seven; funding positive or negative; candle green or red; feargreed greed or fear; " +
          "higherlower higher or lower, or none to see the shown coin first and choose with POST /v1/arcade/move",
      ),
    ),
  ),
  action: v.optional(
    v.pipe(
      v.picklist(ACTIONS),
      v.description(
        "Blackjack: deal starts a hand (its one fee covers the hand); hit and stand go to POST /v1/arcade/move, free",
      ),
    ),
  ),
  playId: v.optional(
    v.pipe(v.string(), v.uuid(), v.description("Unused here: hit and stand name their hand on POST /v1/arcade/move")),
  ),
  salt: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(128),
    v.description(
      'Chosen by the caller, once per player: the seed is SHA-256(blockHash + ":" + salt) with the first block mined after the play is recorded',
    ),
  ),
  player: PlayerKey,
});
export type PlayInput = v.InferOutput<typeof PlayInput>;

export const MoveInput = v.object({
  playId: v.pipe(v.string(), v.uuid(), v.description("The play waiting for your move")),
  move: v.pipe(
    v.picklist(MOVES),
    v.description("Blackjack hit or stand; higherlower higher or lower, once the shown coin is out"),
  ),
  player: PlayerKey,
});
export type MoveInput = v.InferOutput<typeof MoveInput>;

export const Player = v.object({
  id: Hex64,
  alias: v.string(),
  points: Int,
  weekPoints: Int,
  streak: Int,
  bestStreak: Int,
  wins: Int,
  plays: Int,
});

const PlayOutcome = v.picklist(["win", "loss", "push"]);

export const Stage = v.object({
  action: v.picklist(STAGES),
  acceptedAt: v.pipe(Iso, v.description("When this stage was recorded, before its block existed")),
  blockNumber: v.pipe(Int, v.description("The first block mined after acceptedAt: it decides the stage")),
  blockHash: BlockHash,
  seedHex: Hex64,
  drawn: v.array(v.union([v.string(), Int])),
});
export type Stage = v.InferOutput<typeof Stage>;

export const Fairness = v.object({
  network: v.string(),
  salt: v.string(),
  seed: v.string(),
  algorithm: v.string(),
  verify: v.string(),
  game: v.picklist(["dice", "blackjack", "higherlower"]),
  choice: v.nullable(v.string()),
  outcome: v.nullable(PlayOutcome),
  blockHash: v.pipe(BlockHash, v.description("The first stage's deciding block")),
  blockNumber: Int,
  seedHex: Hex64,
  acceptedAt: Iso,
  stages: v.array(Stage),
  derived: v.object({
    dice: v.optional(v.tuple([Int, Int])),
    cards: v.optional(v.array(v.string())),
    shown: v.optional(v.string()),
    hidden: v.optional(v.string()),
  }),
});
export type Fairness = v.InferOutput<typeof Fairness>;

const Coin = v.object({ id: v.string(), symbol: v.string(), name: v.string(), marketCapUsd: v.nullable(v.number()) });

export const Awaiting = v.object({
  what: v.pipe(
    v.picklist(["block", "move", "data"]),
    v.description("block: the deciding block; move: your hit, stand or choice; data: the referee's data"),
  ),
  stage: v.nullable(v.picklist(STAGES)),
  decidingBlock: v.nullable(
    v.pipe(Int, v.description("Recorded with the acceptance; null only in the answer that accepts it")),
  ),
  deadline: v.pipe(
    Iso,
    v.description(
      "Past it a play waiting for a block or data is void and its fee credited; one waiting for your move counts as a loss",
    ),
  ),
  next: v.string(),
});

export const PlayResult = v.object({
  playId: v.string(),
  game: v.picklist(GAMES),
  status: v.picklist(["settled", "pending", "in_progress", "void"]),
  choice: v.optional(v.nullable(v.string())),
  playedAt: Iso,
  settledAt: v.nullable(Iso),
  outcome: v.nullable(PlayOutcome),
  won: v.nullable(v.boolean()),
  pointsAwarded: Int,
  streakActive: Int,
  player: Player,
  awaiting: v.optional(v.nullable(Awaiting)),
  void: v.optional(v.object({ reason: v.string(), refundUsd: v.nullable(v.string()), refund: v.string() })),
  note: v.optional(v.string()),
  dice: v.optional(v.tuple([Int, Int])),
  sum: v.optional(Int),
  hand: v.optional(v.array(v.string())),
  handTotal: v.optional(Int),
  dealerUpcard: v.optional(v.string()),
  dealerHand: v.optional(v.array(v.string())),
  dealerTotal: v.optional(v.nullable(Int)),
  inProgress: v.optional(v.boolean()),
  shown: v.optional(Coin),
  hidden: v.optional(Coin),
  referee: v.optional(
    v.object({
      source: v.string(),
      url: v.string(),
      settlesAt: Iso,
      reference: v.nullable(v.object({ value: v.string(), at: Iso })),
      observed: v.nullable(v.string()),
    }),
  ),
  fairness: v.nullable(Fairness),
});
export type PlayResult = v.InferOutput<typeof PlayResult>;
