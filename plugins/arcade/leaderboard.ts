import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { board } from "./_boards.ts";
import { keys, previousWeek, weekEnd, weekOf } from "./_points.ts";

const Row = v.object({
  rank: v.pipe(v.number(), v.integer()),
  alias: v.string(),
  player: v.pipe(v.string(), v.description("First 12 hex characters of the player id")),
  points: v.pipe(v.number(), v.integer()),
});
const Week = v.object({ start: v.pipe(v.string(), v.isoTimestamp()), end: v.pipe(v.string(), v.isoTimestamp()), players: v.array(Row) });
const weekBoard = async (store: Parameters<typeof board>[0], week: string, count: number) => ({
  start: new Date(week).toISOString(),
  end: weekEnd(week),
  players: await board(store, keys.weekBoard(week), count),
});

export default defineEndpoint({
  name: "arcade/leaderboard",
  method: "GET",
  price: "$0",
  summary: "Arcade leaderboards: this week (resets Monday 00:00 UTC), the last finished week's top 3 (promo-code winners) and all time",
  input: v.object({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Rows of this week's and the all-time board (1-50)")), 10),
  }),
  output: v.object({ week: Week, lastWeek: Week, allTime: v.object({ players: v.array(Row) }) }),
  example: {
    input: { limit: 10 },
    output: {
      week: { start: "2026-11-23T00:00:00.000Z", end: "2026-11-30T00:00:00.000Z", players: [{ rank: 1, alias: "ada", player: "dc3085f04c8e", points: 40 }] },
      lastWeek: { start: "2026-11-16T00:00:00.000Z", end: "2026-11-23T00:00:00.000Z", players: [{ rank: 1, alias: "ada", player: "dc3085f04c8e", points: 120 }] },
      allTime: { players: [{ rank: 1, alias: "ada", player: "dc3085f04c8e", points: 160 }] },
    },
  },
  async handler({ input, store, now }) {
    const week = weekOf(now());
    const [current, last, allTime] = await Promise.all([
      weekBoard(store, week, input.limit),
      weekBoard(store, previousWeek(week), 3),
      board(store, keys.allTimeBoard, input.limit),
    ]);
    return { week: current, lastWeek: last, allTime: { players: allTime } };
  },
});
