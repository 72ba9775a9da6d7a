import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { board } from "./_boards.ts";
import { keys, previousWeek, weekEnd, weekOf } from "./_points.ts";

const Row = v.object({
  rank: v.pipe(v.number(), v.integer(), v.description("Shared by tied players")),
  alias: v.string(),
  player: v.pipe(v.string(), v.description("First 12 hex characters of the player id")),
  points: v.pipe(v.number(), v.integer()),
});
const Week = v.object({
  start: v.pipe(v.string(), v.isoTimestamp()),
  end: v.pipe(v.string(), v.isoTimestamp()),
  players: v.array(Row),
});
const weekBoard = async (store: Parameters<typeof board>[0], set: string, week: string, count: number) => ({
  start: new Date(week).toISOString(),
  end: weekEnd(week),
  players: await board(store, set, count),
});

export default defineEndpoint({
  name: "arcade/leaderboard",
  method: "GET",
  price: "$0",
  summary:
    "Arcade leaderboards: this week (resets Monday 00:00 UTC), the last finished week's paid-play top 3 (the promo-code places) and all time",
  description:
    "Tied players share a rank. The promo places count the points of paid plays only; free plays on /arcade score on the other boards.",
  input: v.object({
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(50),
        v.description("Places of this week's and the all-time board (1-50)"),
      ),
      10,
    ),
  }),
  output: v.object({ week: Week, lastWeek: Week, allTime: v.object({ players: v.array(Row) }) }),
  example: {
    input: { limit: 10 },
    output: {
      week: {
        start: "2026-11-23T00:00:00.000Z",
        end: "2026-11-30T00:00:00.000Z",
        players: [{ rank: 1, alias: "ada", player: "dc3085f04c8e", points: 40 }],
      },
      lastWeek: {
        start: "2026-11-16T00:00:00.000Z",
        end: "2026-11-23T00:00:00.000Z",
        players: [{ rank: 1, alias: "ada", player: "dc3085f04c8e", points: 120 }],
      },
      allTime: { players: [{ rank: 1, alias: "ada", player: "dc3085f04c8e", points: 160 }] },
    },
  },
  async handler({ input, store, now }) {
    const week = weekOf(now());
    const last = previousWeek(week);
    const [current, promo, allTime] = await Promise.all([
      weekBoard(store, keys.weekBoard(week), week, input.limit),
      weekBoard(store, keys.paidWeekBoard(last), last, 3),
      board(store, keys.allTimeBoard, input.limit),
    ]);
    return { week: current, lastWeek: promo, allTime: { players: allTime } };
  },
});
