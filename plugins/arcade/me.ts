import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { playerView } from "./_points.ts";
import { recentPlays } from "./_records.ts";
import { Player, PlayerId, PlayResult } from "./_schemas.ts";

export default defineEndpoint({
  name: "arcade/me",
  method: "GET",
  price: "$0",
  summary:
    "A player's points, week points, streak, best streak, wins and plays; every play not yet final, then the last 20",
  description:
    "Pending and open plays stay listed until they settle or turn void, however many plays come after them. An id that never played answers zero counts, a null alias and no plays.",
  input: v.object({ id: PlayerId }),
  output: v.object({
    player: v.object({ ...Player.entries, alias: v.nullable(v.string()) }),
    plays: v.array(PlayResult),
  }),
  example: {
    input: { id: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8" },
    output: {
      player: {
        id: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
        alias: null,
        points: 0,
        weekPoints: 0,
        streak: 0,
        bestStreak: 0,
        wins: 0,
        plays: 0,
      },
      plays: [],
    },
  },
  async handler({ input, store, now }) {
    const player = await playerView(store, input.id, now());
    if (!player)
      return {
        player: { id: input.id, alias: null, points: 0, weekPoints: 0, streak: 0, bestStreak: 0, wins: 0, plays: 0 },
        plays: [],
      };
    return { player, plays: await recentPlays(store, input.id) };
  },
});
