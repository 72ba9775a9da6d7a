import type { PlayInput, PlayResult } from "./_schemas.ts";

const player = {
  id: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
  alias: "ada",
  points: 10,
  weekPoints: 10,
  streak: 1,
  bestStreak: 1,
  wins: 1,
  plays: 1,
};

/** A dice play as its answer accepts it: the deciding block is fixed when the acceptance is recorded, and drawn a block later. */
export const dicePlayExample: { input: PlayInput; output: PlayResult } = {
  input: { game: "dice", choice: "over", salt: "my-salt-2", player: { alias: "ada", secret: "correct horse battery" } },
  output: {
    playId: "0b7f0c5e-3f4c-4e7e-9d8f-2a4c6d1e9b10",
    game: "dice",
    status: "pending",
    choice: "over",
    playedAt: "2026-11-23T10:00:00.000Z",
    settledAt: null,
    outcome: null,
    won: null,
    pointsAwarded: 0,
    streakActive: 1,
    player,
    awaiting: {
      what: "block",
      stage: "roll",
      decidingBlock: null,
      deadline: "2026-11-23T10:05:00.000Z",
      next: "Drawn from the first block of eip155:8453 mined after this stage was recorded: read it with GET /v1/arcade/me?id=dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
    },
    fairness: null,
  },
};
