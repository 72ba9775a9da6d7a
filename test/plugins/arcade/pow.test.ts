import { test } from "node:test";
import assert from "node:assert/strict";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { diceOutcome, rollDice } from "../../../plugins/arcade/_fair.js";
import { keys, playerIdOf, weekOf } from "../../../plugins/arcade/_points.ts";
import { blockHashOf } from "./_chain.ts";
import { arcadeService, data, player, saltsWhere } from "./_arcade.ts";

const ada = playerIdOf("ada", "correct horse battery");

/** What the altcha widget does in a browser: fetch a challenge, find its counter, send both back as base64 JSON. */
async function solved(s: Awaited<ReturnType<typeof arcadeService>>): Promise<string> {
  const res = await s.service.request("/arcade/api/challenge");
  assert.equal(res.status, 200);
  const challenge = await res.json();
  assert.equal(challenge.parameters.algorithm, "PBKDF2/SHA-256");
  const solution = await solveChallenge({ challenge, deriveKey });
  assert.ok(solution);
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/** A proof of work a test solves in a moment. */
const easyWork = { env: { ARCADE_POW_WORK: "60" } };

const webPlay = (s: Awaited<ReturnType<typeof arcadeService>>, body: object) =>
  s.service.request("/arcade/api/play", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ game: "dice", choice: "over", player: player(), ...body }),
  });

test("free play: a script without a solved proof of work gets no play; one solution buys one play", async (t) => {
  const s = await arcadeService(t, [], easyWork);
  const refused = [await webPlay(s, { salt: "a" }), await webPlay(s, { salt: "b", altcha: "bm90IGpzb24=" })];
  for (const res of refused) {
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.code, "proof_of_work_required");
  }
  assert.deepEqual(await s.service.runtime.store.keys("arcade:play:"), []);

  const payload = await solved(s);
  const ok = await webPlay(s, { salt: "c", altcha: payload });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).data.status, "pending");
  const replay = await webPlay(s, { salt: "d", altcha: payload });
  assert.equal(replay.status, 403);
  assert.match((await replay.json()).error.message, /spent already/);

  const elsewhere = await arcadeService(t, [], easyWork);
  const foreign = await webPlay(s, { salt: "e", altcha: await solved(elsewhere) });
  assert.equal(foreign.status, 403, "a challenge another deployment signed");
  assert.equal((await s.service.runtime.store.keys("arcade:play:")).length, 1);
});

test("free play: still limited per visitor, with Retry-After", async (t) => {
  const s = await arcadeService(t, [], { env: { ARCADE_POW_WORK: "60", ARCADE_WEB_PLAYS_PER_HOUR: "2" } });
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const res = await webPlay(s, { salt: `w-${i}`, altcha: await solved(s) });
    statuses.push(res.status);
    if (res.status === 429) assert.ok(Number(res.headers.get("retry-after")) > 0);
  }
  assert.deepEqual(statuses, [200, 200, 429]);
});

test("free play: wins score on the boards but never on the paid board the promo codes rank, and a void free play credits nothing", async (t) => {
  const s = await arcadeService(t, [], easyWork);
  const [salt] = await saltsWhere(
    blockHashOf(s.chain.head().number + 1),
    async (seed) => diceOutcome("over", await rollDice(seed)) === "win",
    1,
    "free-win",
  );
  assert.equal((await webPlay(s, { salt, altcha: await solved(s) })).status, 200);
  await s.mineAndDraw();
  const store = s.service.runtime.store;
  const week = weekOf(s.clock.now());
  assert.deepEqual(await store.top(keys.weekBoard(week), 5), [{ member: ada, score: 10 }]);
  assert.deepEqual(await store.top(keys.paidWeekBoard(week), 5), []);

  const { awaiting } = (await (await webPlay(s, { salt: "lost", altcha: await solved(s) })).json()).data;
  s.chain.fail(true);
  s.clock.set(new Date(Date.parse(awaiting.deadline) + 1_000).toISOString());
  await s.draw();
  const voided = data(await s.service.call("arcade/me", { id: ada })).plays.find((p: any) => p.status === "void");
  assert.deepEqual([voided.void.refundUsd, voided.void.refund], [null, "a free play: nothing was charged"]);
});
