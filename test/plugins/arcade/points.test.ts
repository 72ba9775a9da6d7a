import { test } from "node:test";
import assert from "node:assert/strict";
import { diceOutcome, rollDice } from "../../../plugins/arcade/_fair.js";
import { weekOf } from "../../../plugins/arcade/_points.ts";
import { blockHashOf } from "./_chain.ts";
import { arcadeService, data, player, saltsWhere } from "./_arcade.ts";

type Arcade = Awaited<ReturnType<typeof arcadeService>>;

/** A paid dice play that wins on the next block, drawn. */
async function win(a: Arcade, who: { alias: string; secret: string }) {
  const [salt] = await saltsWhere(
    blockHashOf(a.chain.head().number + 1),
    async (s) => diceOutcome("over", await rollDice(s)) === "win",
    1,
    `${who.alias}-${a.chain.head().number}`,
  );
  const { player: p } = data(await a.service.call("arcade/play", { game: "dice", choice: "over", salt, player: who }));
  await a.mineAndDraw();
  return p.id as string;
}

const promo = (a: Arcade, who: { alias: string; secret: string }) =>
  a.service
    .request("/v1/arcade/promo-code", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ player: who }),
    })
    .then(async (res) => (await res.json()).data);

test("weeks start Monday 00:00 UTC", () => {
  assert.equal(weekOf(new Date("2026-11-29T23:59:59Z")), "2026-11-23");
  assert.equal(weekOf(new Date("2026-11-30T00:00:00Z")), "2026-11-30");
  assert.equal(weekOf(new Date("2026-11-23T00:00:00Z")), "2026-11-23");
  assert.equal(weekOf(new Date("2027-01-03T12:00:00Z")), "2026-12-28");
});

test("week points reset at Monday 00:00 UTC; lifetime points and the leaderboards carry on", async (t) => {
  const a = await arcadeService(t, [], { clock: undefined });
  a.clock.set("2026-11-29T23:59:50Z");
  const id = await win(a, player());
  const before = data(await a.service.call("arcade/me", { id }));
  assert.deepEqual([before.player.points, before.player.weekPoints], [10, 10]);

  a.clock.set("2026-11-30T00:00:10Z");
  const me = data(await a.service.call("arcade/me", { id }));
  assert.deepEqual([me.player.points, me.player.weekPoints, me.player.streak], [10, 0, 1]);
  const board = data(await a.service.call("arcade/leaderboard", {}));
  assert.equal(board.week.start, "2026-11-30T00:00:00.000Z");
  assert.deepEqual(board.week.players, []);
  assert.deepEqual(board.lastWeek.players, [{ rank: 1, alias: "ada", player: id.slice(0, 12), points: 10 }]);
  assert.deepEqual(
    board.allTime.players.map((p: any) => p.points),
    [10],
  );

  await win(a, player());
  const after = data(await a.service.call("arcade/me", { id }));
  assert.deepEqual([after.player.points, after.player.weekPoints, after.plays[0].pointsAwarded], [20, 10, 10]);
});

test("promo codes: the last week's paid top 3, read with the player's secret; tied players share the place and split its prizes", async (t) => {
  const a = await arcadeService(t);
  a.clock.set("2026-11-25T12:00:00Z");
  const who = Object.fromEntries(
    ["ada", "bob", "cy", "dan"].map((alias) => [alias, player(alias, `${alias}-secret-key`)]),
  );
  for (const [alias, wins] of [
    ["ada", 3],
    ["bob", 2],
    ["cy", 2],
    ["dan", 1],
  ] as const)
    for (let i = 0; i < wins; i++) await win(a, who[alias]);
  const during = await promo(a, who.ada);
  assert.deepEqual(
    [during.eligible, during.code, during.week.start],
    [false, null, "2026-11-16T00:00:00.000Z"],
    "the week is not over yet",
  );

  a.clock.set("2026-12-01T09:00:00Z");
  const codes = await Promise.all(["ada", "ada", "bob", "cy", "dan"].map((alias) => promo(a, who[alias])));
  assert.deepEqual(
    codes.map((c) => [c.rank, c.tied, c.points, c.eligible, c.amountUsd]),
    [
      [1, 1, 40, true, "1.00"],
      [1, 1, 40, true, "1.00"],
      [2, 2, 20, true, "0.375"],
      [2, 2, 20, true, "0.375"],
      [null, 1, null, false, null],
    ],
  );
  assert.equal(codes[0].code, codes[1].code, "one code per winner, however often asked");
  assert.notEqual(codes[2].code, codes[3].code);
  const board = data(await a.service.call("arcade/leaderboard", {}));
  assert.deepEqual(board.lastWeek.players.map((p: any) => [p.rank, p.alias]).sort(), [
    [1, "ada"],
    [2, "bob"],
    [2, "cy"],
  ]);

  const stranger = await promo(a, player("ada", "not-ada-secret"));
  assert.deepEqual([stranger.rank, stranger.code], [null, null], "the alias alone reads nothing");
  const byId = await a.service.request(`/v1/arcade/promo-code?player=${codes[0].player}`);
  assert.notEqual(byId.status, 200, "no code for whoever knows the id");

  const { credits } = a.service.runtime;
  assert.equal(await credits.balance(codes[0].code), 1_000_000n);
  assert.equal(await credits.balance(codes[2].code), 375_000n);
  assert.equal(await credits.spend(codes[3].code, 5_000n), true);
  assert.equal(await credits.balance(codes[3].code), 370_000n);
});
