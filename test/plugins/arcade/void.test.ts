import { test } from "node:test";
import assert from "node:assert/strict";
import type { Fixture } from "../../helpers/fixtures.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { createCredits } from "../../../core/payment/credits.ts";
import { playerIdOf } from "../../../plugins/arcade/_points.ts";
import { settlingGate } from "../../helpers/service.ts";
import { paidPost } from "../_effects.ts";
import { fakeChain, testClock } from "./_chain.ts";
import { arcadeService, data, player } from "./_arcade.ts";

const ada = playerIdOf("ada", "correct horse battery");
const at = (iso: string) => Date.parse(iso);
const noPrintYet = (settlesAt: string): Fixture => ({
  source:
    "https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Get-Funding-Rate-History (oldest first; empty before the print)",
  request: {
    method: "GET",
    path: `/binance/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=${at(settlesAt)}&endTime=${at(settlesAt) + 3_600_000}&limit=1000`,
  },
  response: { status: 200, body: [] },
});

/** Two instances on one store; the second's clock is one tick ahead so both run a tick at once. */
async function twoInstances(t: Parameters<typeof arcadeService>[0], fixtures: Fixture[], start: string) {
  const store = createMemoryStore();
  const clock = testClock(start);
  const chain = await fakeChain(t, clock);
  const a = await arcadeService(t, fixtures, { store, clock, chain, payments: settlingGate() });
  const ahead = { now: () => new Date(clock.now().getTime() + 10_000), advance: () => {}, set: () => {} };
  const b = await arcadeService(t, fixtures, { store, clock: ahead, chain, payments: settlingGate() });
  return { a, b, store, clock, chain };
}

const promoCodes = async (s: Awaited<ReturnType<typeof arcadeService>>) =>
  data(
    await s.service
      .request("/v1/arcade/promo-code", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ player: player() }),
      })
      .then(async (res) => ({ body: await res.json() })),
  );

test("a prediction whose data never comes stays in /me, then past its deadline is void, credited once on two instances, and never asked again", async (t) => {
  const { a, b, store, clock } = await twoInstances(t, [noPrintYet("2026-11-25T16:00:00Z")], "2026-11-25T07:30:00Z");
  const res = await a.service.request(
    "/v1/arcade/play",
    paidPost({ game: "funding", choice: "positive", salt: "f", player: player() }),
  );
  const play = (await res.json()).data;
  assert.deepEqual(
    [play.status, play.referee.settlesAt, play.awaiting.deadline],
    ["pending", "2026-11-25T16:00:00.000Z", "2026-11-25T18:00:00.000Z"],
    "the print after next, with two hours' grace",
  );
  for (let i = 0; i < 21; i++)
    await a.service.call("arcade/play", { game: "dice", choice: "over", salt: `d-${i}`, player: player() });
  await a.mineAndDraw();
  const listed = data(await a.service.call("arcade/me", { id: ada })).plays;
  assert.equal(listed.length, 21, "the open play and the last 20");
  assert.deepEqual([listed[0].playId, listed[0].status], [play.playId, "pending"], "the pending play is listed first");

  clock.set("2026-11-25T16:00:30Z");
  await a.settle();
  const asked = a.api.calls.length;
  assert.equal(asked, 1, "the print was asked for once it was due");
  clock.set("2026-11-25T18:00:01Z");
  assert.deepEqual(await Promise.all([a.service.jobs.run("arcade-settle"), b.service.jobs.run("arcade-settle")]), [
    true,
    true,
  ]);
  await Promise.all([a.service.jobs.run("arcade-settle"), b.service.jobs.run("arcade-settle")]);
  const voided = await store.get<any>(`arcade:play:${play.playId}`);
  assert.deepEqual([voided.status, voided.outcome, voided.void.refundUsd], ["void", null, "0.005"]);
  assert.equal(a.api.calls.length, asked, "no more reads of the print once the play is void");
  assert.deepEqual(await store.keys("arcade:pending:"), []);

  const codes = await promoCodes(b);
  assert.equal(codes.refunds.length, 1);
  assert.deepEqual([codes.refunds[0].playId, codes.refunds[0].amountUsd], [play.playId, "0.005"]);
  assert.equal(await createCredits(store).balance(codes.refunds[0].code), 5_000n, "credited once");
  clock.advance(20_000);
  await Promise.all([a.settle(), b.service.jobs.run("arcade-settle")]);
  assert.equal(await createCredits(store).balance(codes.refunds[0].code), 5_000n);
  assert.equal(data(await a.service.call("arcade/me", { id: ada })).player.plays, 21, "a void play is not counted");
});

test("a dice play whose block is never read is void past its deadline and credited once on two instances; the job stops asking", async (t) => {
  const { a, b, store, clock, chain } = await twoInstances(t, [], "2026-11-25T12:00:00Z");
  const res = await a.service.request(
    "/v1/arcade/play",
    paidPost({ game: "dice", choice: "seven", salt: "lost", player: player() }),
  );
  const { playId, awaiting } = (await res.json()).data;
  chain.fail(true);
  await a.draw();
  const pending = data(await a.service.call("arcade/me", { id: ada })).plays[0];
  assert.deepEqual([pending.status, pending.awaiting.what], ["pending", "block"]);
  clock.set(new Date(Date.parse(awaiting.deadline) + 1_000).toISOString());
  await Promise.all([a.draw(), b.service.jobs.run("arcade-draw")]);
  const voided = data(await a.service.call("arcade/me", { id: ada })).plays[0];
  assert.deepEqual([voided.playId, voided.status, voided.void.refundUsd], [playId, "void", "0.005"]);
  assert.match(voided.void.reason, /was not read by the deadline/);
  assert.deepEqual(await store.keys("arcade:live:"), []);
  const codes = await promoCodes(a);
  assert.equal(codes.refunds.length, 1);
  assert.equal(await createCredits(store).balance(codes.refunds[0].code), 5_000n);

  chain.fail(false);
  const calls = chain.calls.length;
  await Promise.all([a.draw(), b.service.jobs.run("arcade-draw")]);
  assert.equal(chain.calls.length, calls, "nothing left to ask the chain about");
  chain.mine();
  await a.draw();
  assert.equal(
    data(await a.service.call("arcade/me", { id: ada })).plays[0].status,
    "void",
    "a block that comes late changes nothing",
  );
});
