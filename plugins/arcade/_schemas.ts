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
const allChoices = [...new Set(Object.values(CHOICES).flat())];

const Hex64 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex characters"));
export const PlayerId = v.pipe(Hex64, v.description("Player id: hex SHA-256 of `alias|secret`"));
const Int = v.pipe(v.number(), v.integer());
const Iso = v.pipe(v.string(), v.isoTimestamp());

export const PlayInput = v.object({
  game: v.pipe(v.picklist(GAMES), v.description("dice, blackjack, funding, candle, feargreed or higherlower")),
  choice: v.optional(v.pipe(v.picklist(allChoices), v.description(
    "Every game but blackjack: dice over (8-12), under (2-6) or seven; funding positive or negative; candle green or red; feargreed greed or fear; higherlower higher or lower",
  ))),
  action: v.optional(v.pipe(v.picklist(ACTIONS), v.description("Blackjack only: deal starts a hand, hit and stand continue it"))),
  playId: v.optional(v.pipe(v.string(), v.uuid(), v.description("Blackjack hit and stand: the playId the deal returned"))),
  salt: v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description(
    "Chosen by the caller before playing; the seed is SHA-256(blockHash + \":\" + salt). Hit and stand keep the deal's salt",
  )),
  player: v.pipe(
    v.object({
      alias: v.pipe(v.string(), v.minLength(1), v.maxLength(32), v.regex(/^[A-Za-z0-9 _.-]+$/, "ASCII letters, digits, spaces, _ . - only"), v.description("Shown on the leaderboard")),
      secret: v.pipe(v.string(), v.minLength(8), v.maxLength(128), v.description("The account key; never stored, only hashed into the id")),
    }),
    v.description("The player; id = SHA-256(alias|secret)"),
  ),
});
export type PlayInput = v.InferOutput<typeof PlayInput>;

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

export const Fairness = v.object({
  blockHash: v.pipe(v.string(), v.regex(/^0x[0-9a-f]{64}$/)),
  blockNumber: Int,
  network: v.string(),
  salt: v.string(),
  seed: v.string(),
  seedHex: Hex64,
  algorithm: v.string(),
  verify: v.string(),
  game: v.picklist(["dice", "blackjack", "higherlower"]),
  derived: v.object({
    dice: v.optional(v.tuple([Int, Int])),
    cards: v.optional(v.array(v.string())),
    shown: v.optional(v.string()),
    hidden: v.optional(v.string()),
  }),
});
export type Fairness = v.InferOutput<typeof Fairness>;

const Coin = v.object({ id: v.string(), symbol: v.string(), name: v.string(), marketCapUsd: v.nullable(v.number()) });

export const PlayResult = v.object({
  playId: v.string(),
  game: v.picklist(GAMES),
  status: v.picklist(["settled", "pending", "in_progress"]),
  choice: v.optional(v.string()),
  action: v.optional(v.picklist(ACTIONS)),
  playedAt: Iso,
  settledAt: v.nullable(Iso),
  outcome: v.nullable(v.picklist(["win", "loss", "push"])),
  won: v.nullable(v.boolean()),
  pointsAwarded: Int,
  streakActive: Int,
  player: Player,
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
  referee: v.optional(v.object({
    source: v.string(),
    url: v.string(),
    settlesAt: Iso,
    reference: v.nullable(v.object({ value: v.string(), at: Iso })),
    observed: v.nullable(v.string()),
  })),
  fairness: v.nullable(Fairness),
});
export type PlayResult = v.InferOutput<typeof PlayResult>;
