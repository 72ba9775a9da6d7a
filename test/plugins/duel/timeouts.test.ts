import { after, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { encodeFunctionData, toHex } from "viem";
import { duelEscrowAbi } from "../../../plugins/duel/_abi.ts";
import { chooseHits, startDuelWorld, type Player } from "./_world.ts";
import { errorOf } from "../../helpers/expect.ts";

const world = await startDuelWorld();
after(() => world.stop());
const { a, b, keeper, house, owner } = world.players;
const STAKE = 10n ** 16n;
const TIP = STAKE / 100n;
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

/** Lets the phase run out, checks that timeout was refused until then, and has `caller` send the state's next action. */
async function timesOut(duelId: number, window: number, caller: Player, whenExpired?: () => Promise<void>) {
  const early = await world.free(`/duel/tx?action=timeout&duelId=${duelId}`);
  assert.equal(await world.revertName(caller, early), "TooEarly");
  await world.travel(window + 1);
  await whenExpired?.();
  const expired = await world.state(duelId);
  assert.deepEqual([expired.expired, expired.next.action, expired.result.final], [true, "timeout", false]);
  await world.send(caller, expired.next.tx);
  const settled = await world.state(duelId);
  assert.equal(settled.phase, "settled");
  assert.equal(settled.result.outcome, expired.result.outcome, "the computed result is what timeout did");
  if (caller !== a) assert.deepEqual(settled.result.payouts, expired.result.payouts);
  return settled;
}

/** Both secrets out: both players know the seed, so each knows how the duel ends. */
async function seeded() {
  const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
  await world.send(a, await world.revealOf(duelId, secretA.secret));
  await world.send(b, await world.revealOf(duelId, secretB.secret));
  return { duelId, seed: (await world.free(`/duel/seed?duelId=${duelId}`)).data.seed };
}

test("duel timeout, open: nobody joined; a keeper earns 1% of the stake, player A gets the rest back", async () => {
  let settled: any;
  let duelId = 0;
  const net = await netOf(async () => {
    ({ duelId } = await world.openAndJoin(a, undefined));
    settled = await timesOut(duelId, JOIN_WINDOW, keeper);
  });
  assert.equal(settled.result.outcome, "refunded");
  assert.deepEqual(net, { a: -TIP, b: 0n, keeper: TIP, house: 0n });
  const late = await world.service.call("duel/join", { duelId, commitmentB: (await world.secret()).commitment });
  assert.equal(late.status, 409);
});

test("duel timeout, open: player A timing out its own duel pays itself no tip: the whole stake comes back", async () => {
  const net = await netOf(async () => {
    const { duelId } = await world.openAndJoin(a, undefined);
    await timesOut(duelId, JOIN_WINDOW, a);
  });
  assert.deepEqual(net, { a: 0n, b: 0n, keeper: 0n, house: 0n });
});

test("duel cancel: before anyone joins player A takes the whole stake back; nobody else can, and not after a join", async () => {
  let duelId = 0;
  const net = await netOf(async () => {
    ({ duelId } = await world.openAndJoin(a, undefined));
    const cancel = await world.free(`/duel/tx?action=cancel&duelId=${duelId}`);
    assert.equal(await world.revertName(b, cancel), "NotCreator");
    await world.send(a, cancel);
  });
  assert.deepEqual(net, { a: 0n, b: 0n, keeper: 0n, house: 0n }, "the stake comes back to the wei");
  const state = await world.state(duelId);
  assert.deepEqual(
    [state.phase, state.result.outcome, state.escrowed, state.next],
    ["settled", "cancelled", "0", null],
  );
  assert.equal(
    (await world.service.call("duel/join", { duelId, commitmentB: (await world.secret()).commitment })).status,
    409,
  );
  const { duelId: joined } = await world.openAndJoin(a, b);
  assert.equal(await world.revertName(a, await world.free(`/duel/tx?action=cancel&duelId=${joined}`)), "WrongPhase");
});

test("duel timeout, reveal-secrets: only A revealed; B's late reveal is refused, B calling timeout itself earns nothing, A wins the pot minus the rake", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
    await world.send(a, await world.revealOf(duelId, secretA.secret));
    settled = await timesOut(duelId, PHASE_WINDOW, b, async () => {
      assert.equal(await world.revertName(b, await world.revealOf(duelId, secretB.secret)), "TooLate");
    });
  });
  assert.equal(settled.result.outcome, "a-wins-by-timeout");
  assert.deepEqual(net, { a: STAKE - RAKE, b: -STAKE, keeper: 0n, house: RAKE });
});

test("duel timeout, commit-moves: the loser who knows it stalls and times out, itself or through another wallet, and gets no tip", async () => {
  for (const staller of ["itself", "a keeper wallet"] as const) {
    let settled: any;
    const net = await netOf(async () => {
      const { duelId, seed } = await seeded();
      // B commits its best hand; A, seeing it cannot win, never commits.
      const hits = await chooseHits(world, seed, false, "best");
      await world.send(b, await world.commitOf(duelId, b, hits, toHex(randomBytes(32))));
      settled = await timesOut(duelId, PHASE_WINDOW, staller === "itself" ? a : keeper);
    });
    assert.equal(settled.result.outcome, "b-wins-by-timeout", staller);
    assert.deepEqual(settled.result.payouts, {
      a: "0",
      b: (2n * STAKE - RAKE).toString(),
      rake: RAKE.toString(),
      tip: "0",
    });
    assert.deepEqual(
      net,
      { a: -STAKE, b: STAKE - RAKE, keeper: 0n, house: RAKE },
      `the staller (${staller}) gets nothing; the winner gets what settle would pay`,
    );
  }
});

test("duel timeout, reveal-moves: neither revealed; both stakes come back in full, no rake, no tip", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId } = await seeded();
    for (const player of [a, b])
      await world.send(player, await world.commitOf(duelId, player, 1, toHex(randomBytes(32))));
    assert.equal((await world.state(duelId)).phase, "reveal-moves");
    settled = await timesOut(duelId, PHASE_WINDOW, keeper);
  });
  assert.equal(settled.result.outcome, "refunded");
  assert.deepEqual(net, { a: 0n, b: 0n, keeper: 0n, house: 0n });
});

test("duel rake: a rake raised after create does not apply to the duel; a create that accepts less than the new rake is refused", async () => {
  const setRake = (rake: number) => ({
    to: world.devnet.duelEscrow,
    data: encodeFunctionData({ abi: duelEscrowAbi, functionName: "setRake", args: [rake] }),
    value: "0x0" as const,
  });
  const { duelId, secretA } = await world.openAndJoin(a, b, 0.01, 300);
  const stale = await world.paid("duel/create", {
    commitmentA: (await world.secret()).commitment,
    stake: 0.01,
    maxRakeBps: 300,
  });
  await world.send(owner, setRake(500));
  try {
    assert.equal((await world.state(duelId)).rakeBps, 300, "the duel keeps the rake it was created with");
    assert.equal(await world.revertName(a, stale), "RakeAboveMax", "a create composed before the raise reverts");
    const refused = await world.service.call("duel/create", {
      commitmentA: (await world.secret()).commitment,
      stake: 0.01,
      maxRakeBps: 300,
    });
    assert.deepEqual([refused.status, errorOf(refused).code], [409, "rake_above_max"]);
    let settled: any;
    const net = await netOf(async () => {
      await world.send(a, await world.revealOf(duelId, secretA.secret));
      settled = await timesOut(duelId, PHASE_WINDOW, keeper);
    });
    assert.equal(settled.result.outcome, "a-wins-by-timeout");
    assert.deepEqual(
      net,
      { a: 2n * STAKE - RAKE, b: 0n, keeper: 0n, house: RAKE },
      "the stakes were in already: A takes the pot minus 3%, not 5%",
    );
  } finally {
    await world.send(owner, setRake(300));
  }
});

test("duel timeout: a settled duel cannot be timed out again, and a ready one is settled, not timed out", async () => {
  const { duelId } = await world.openAndJoin(a, undefined);
  await world.travel(JOIN_WINDOW + 1);
  const timeout = await world.free(`/duel/tx?action=timeout&duelId=${duelId}`);
  await world.send(keeper, timeout);
  assert.equal(await world.revertName(keeper, timeout), "WrongPhase");
  assert.equal((await world.state(duelId)).next, null);
});
