import { test } from "node:test";
import assert from "node:assert/strict";
import { rollDice } from "../../../plugins/arcade/_fair.js";
import { weekOf } from "../../../plugins/arcade/_points.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { createCredits } from "../../../core/x402/credits.ts";
import { arcadeService, data, player, saltsWhere } from "./_arcade.ts";

const winningSalts = (count: number, prefix: string) => saltsWhere(async (s) => (await rollDice(s)).reduce((a, b) => a + b) >= 8, count, prefix);

test("weeks start Monday 00:00 UTC", () => {
  assert.equal(weekOf(new Date("2026-11-29T23:59:59Z")), "2026-11-23");
  assert.equal(weekOf(new Date("2026-11-30T00:00:00Z")), "2026-11-30");
  assert.equal(weekOf(new Date("2026-11-23T00:00:00Z")), "2026-11-23");
  assert.equal(weekOf(new Date("2027-01-03T12:00:00Z")), "2026-12-28");
});

test("week points reset at Monday 00:00 UTC; lifetime points and the leaderboards carry on", async (t) => {
  let clock = new Date("2026-11-29T23:59:50Z");
  const { service } = await arcadeService(t, [], { now: () => clock });
  const [first, second] = await winningSalts(2, "monday");
  const before = data(await service.call("arcade/play", { game: "dice", choice: "over", salt: first, player: player() }));
  assert.deepEqual([before.player.points, before.player.weekPoints], [10, 10]);

  clock = new Date("2026-11-30T00:00:10Z");
  const me = data(await service.call("arcade/me", { id: before.player.id }));
  assert.deepEqual([me.player.points, me.player.weekPoints, me.player.streak], [10, 0, 1]);
  const board = data(await service.call("arcade/leaderboard", {}));
  assert.equal(board.week.start, "2026-11-30T00:00:00.000Z");
  assert.deepEqual(board.week.players, []);
  assert.deepEqual(board.lastWeek.players, [{ rank: 1, alias: "ada", player: before.player.id.slice(0, 12), points: 10 }]);
  assert.deepEqual(board.allTime.players.map((p: any) => p.points), [10]);

  const after = data(await service.call("arcade/play", { game: "dice", choice: "over", salt: second, player: player() }));
  assert.deepEqual([after.player.points, after.player.weekPoints, after.pointsAwarded], [20, 10, 10]);
});

test("the last finished week's top 3 get one API-credit code each, spendable; others get none", async (t) => {
  const store = createMemoryStore();
  let clock = new Date("2026-11-25T12:00:00Z");
  const { service } = await arcadeService(t, [], { store, now: () => clock });
  const salts = await winningSalts(10, "promo");
  const ids: Record<string, string> = {};
  for (const [alias, wins] of [["ada", 4], ["bob", 3], ["cy", 2], ["dan", 1]] as const) {
    for (let i = 0; i < wins; i++) {
      ids[alias] = data(await service.call("arcade/play", { game: "dice", choice: "over", salt: salts.pop(), player: player(alias, `${alias}-secret-key`) })).player.id;
    }
  }
  const during = data(await service.call("arcade/promo-code", { player: ids.ada }));
  assert.deepEqual([during.eligible, during.code, during.week.start], [false, null, "2026-11-16T00:00:00.000Z"], "the week is not over yet");

  clock = new Date("2026-12-01T09:00:00Z");
  const codes = await Promise.all(["ada", "ada", "bob", "cy", "dan"].map(async (alias) => data(await service.call("arcade/promo-code", { player: ids[alias] }))));
  assert.deepEqual(codes.map((c) => [c.rank, c.points, c.eligible, c.amountUsd]), [
    [1, 60, true, "1.00"], [1, 60, true, "1.00"], [2, 40, true, "0.50"], [3, 20, true, "0.25"], [null, 10, false, null],
  ]);
  assert.equal(codes[0].code, codes[1].code, "one code per winner, however often asked");
  assert.equal(codes[4].code, null);
  assert.equal(codes[0].week.start, "2026-11-23T00:00:00.000Z");
  const credits = createCredits(store);
  assert.equal(await credits.balance(codes[0].code), 1_000_000n);
  assert.equal(await credits.balance(codes[3].code), 250_000n);
  assert.equal(await credits.spend(codes[2].code, 5_000n), true);
  assert.equal(await credits.balance(codes[2].code), 495_000n);
});
