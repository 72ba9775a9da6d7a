import { fairnessOf } from "./_records.ts";
import type { PlayInput, PlayResult } from "./_schemas.ts";

const player = { id: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8", alias: "ada", points: 10, weekPoints: 10, streak: 1, bestStreak: 1, wins: 1, plays: 1 };

/** A real dice play: seedHex and the dice recompute from blockHash and salt (`npm run verify-play`). */
export const dicePlayExample: { input: PlayInput; output: PlayResult } = {
  input: { game: "dice", choice: "over", salt: "my-salt-2", player: { alias: "ada", secret: "correct horse battery" } },
  output: {
    playId: "0b7f0c5e-3f4c-4e7e-9d8f-2a4c6d1e9b10",
    game: "dice",
    status: "settled",
    choice: "over",
    playedAt: "2026-11-23T10:00:00.000Z",
    settledAt: "2026-11-23T10:00:00.000Z",
    outcome: "win",
    won: true,
    pointsAwarded: 10,
    streakActive: 1,
    player,
    dice: [4, 5],
    sum: 9,
    fairness: fairnessOf(
      { hash: "0x92625bce921d78ae8d91033bca6a51bb21c0fdc468de19ba51c1f052e05e3374", number: 1234, network: "eip155:84532" },
      "my-salt-2",
      "3839496169db049a398f75549a2db006c6bd10029dca8260b7c163f2763f2662",
      "dice",
      { dice: [4, 5] },
    ),
  },
};
