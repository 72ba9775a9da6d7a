import { after, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { toHex } from "viem";
import { startDuelWorld } from "./_world.ts";

const world = await startDuelWorld();
after(() => world.stop());
const { a, b, keeper, house } = world.players;
const STAKE = 10n ** 16n;
const TIP_EACH = STAKE / 100n;
const RAKE = (2n * STAKE * 300n) / 10_000n;
const JOIN_WINDOW = 86_400;
const PHASE_WINDOW = 600;

async function netOf(work: () => Promise<void>) {
  const parties = [a.address, b.address, keeper.address, house];
  const before = await Promise.all(parties.map(async (p) => (await world.balance(p)) + world.gasOf(p)));
  await work();
  const after = await Promise.all(parties.map(async (p) => (await world.balance(p)) + world.gasOf(p)));
  const [na, nb, nk, nh] = after.map((x, i) => x - before[i]);
  return { a: na, b: nb, keeper: nk, house: nh };
}

/** Lets the phase run out, checks that timeout was refused until then, and has the keeper trigger it from the state's next action. */
async function keeperTimesOut(duelId: number, window: number, whenExpired?: () => Promise<void>) {
  const early = await world.free(`/duel/tx?action=timeout&duelId=${duelId}`);
  assert.equal(await world.revertName(keeper, early), "TooEarly");
  await world.travel(window + 1);
  await whenExpired?.();
  const expired = await world.state(duelId);
  assert.equal(expired.expired, true);
  assert.equal(expired.next.action, "timeout");
  assert.equal(expired.result.final, false);
  await world.send(keeper, expired.next.tx);
  const settled = await world.state(duelId);
  assert.equal(settled.phase, "settled");
  assert.equal(settled.result.outcome, expired.result.outcome, "the computed result is what timeout did");
  assert.deepEqual(settled.result.payouts, expired.result.payouts);
  return settled;
}

test("duel timeout, open: nobody joined; the keeper earns 1% and player A gets the rest back", async () => {
  let settled: any;
  let duelId = 0;
  const net = await netOf(async () => {
    ({ duelId } = await world.openAndJoin(a, undefined));
    settled = await keeperTimesOut(duelId, JOIN_WINDOW);
  });
  assert.equal(settled.result.outcome, "refunded");
  assert.deepEqual(net, { a: -TIP_EACH, b: 0n, keeper: TIP_EACH, house: 0n });
  const late = await world.service.call("duel/join", { duelId, commitmentB: (await world.secret()).commitment });
  assert.equal(late.status, 409);
});

test("duel timeout, reveal-secrets: only A revealed; A wins the pot minus rake and tip, B's late reveal is refused", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
    await world.send(a, await world.free(`/duel/tx?action=reveal&duelId=${duelId}&secret=${secretA.secret}`));
    settled = await keeperTimesOut(duelId, PHASE_WINDOW, async () => {
      const late = await world.free(`/duel/tx?action=reveal&duelId=${duelId}&secret=${secretB.secret}`);
      assert.equal(await world.revertName(b, late), "TooLate");
    });
  });
  assert.equal(settled.result.outcome, "a-wins-by-timeout");
  assert.deepEqual(net, { a: STAKE - RAKE - 2n * TIP_EACH, b: -STAKE, keeper: 2n * TIP_EACH, house: RAKE });
});

test("duel timeout, commit-moves: only B committed; B wins", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
    await world.send(a, await world.free(`/duel/tx?action=reveal&duelId=${duelId}&secret=${secretA.secret}`));
    await world.send(b, await world.free(`/duel/tx?action=reveal&duelId=${duelId}&secret=${secretB.secret}`));
    const { sha } = await world.free(`/duel/tx?action=sha&duelId=${duelId}&player=${b.address}&hits=0&salt=${toHex(randomBytes(32))}`);
    await world.send(b, await world.free(`/duel/tx?action=commit&duelId=${duelId}&commitment=${sha}`));
    settled = await keeperTimesOut(duelId, PHASE_WINDOW);
  });
  assert.equal(settled.result.outcome, "b-wins-by-timeout");
  assert.equal(settled.result.winner, "b");
  assert.deepEqual(net, { a: -STAKE, b: STAKE - RAKE - 2n * TIP_EACH, keeper: 2n * TIP_EACH, house: RAKE });
});

test("duel timeout, reveal-moves: neither revealed; both stakes come back minus the tip, no rake", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
    await world.send(a, await world.free(`/duel/tx?action=reveal&duelId=${duelId}&secret=${secretA.secret}`));
    await world.send(b, await world.free(`/duel/tx?action=reveal&duelId=${duelId}&secret=${secretB.secret}`));
    for (const player of [a, b]) {
      const { sha } = await world.free(`/duel/tx?action=sha&duelId=${duelId}&player=${player.address}&hits=1&salt=${toHex(randomBytes(32))}`);
      await world.send(player, await world.free(`/duel/tx?action=commit&duelId=${duelId}&commitment=${sha}`));
    }
    assert.equal((await world.state(duelId)).phase, "reveal-moves");
    settled = await keeperTimesOut(duelId, PHASE_WINDOW);
  });
  assert.equal(settled.result.outcome, "refunded");
  assert.deepEqual(net, { a: -TIP_EACH, b: -TIP_EACH, keeper: 2n * TIP_EACH, house: 0n });
});

test("duel timeout: a settled duel cannot be timed out again, and a ready one is settled, not timed out", async () => {
  const { duelId } = await world.openAndJoin(a, undefined);
  await world.travel(JOIN_WINDOW + 1);
  const timeout = await world.free(`/duel/tx?action=timeout&duelId=${duelId}`);
  await world.send(keeper, timeout);
  assert.equal(await world.revertName(keeper, timeout), "WrongPhase");
  assert.equal((await world.state(duelId)).next, null);
});
