import { after, test } from "node:test";
import assert from "node:assert/strict";
import { toHex, type Hex } from "viem";
import { randomBytes } from "node:crypto";
import { chooseHits, startDuelWorld, type Player } from "./_world.ts";
import { errorOf, issuesOf } from "../../helpers/expect.ts";
import duelState from "../../../plugins/duel/state.ts";

const world = await startDuelWorld();
after(() => world.stop());
const { a, b, keeper, house } = world.players;
const STAKE = 10n ** 16n; // 0.01 ETH
const RAKE = (2n * STAKE * 300n) / 10_000n;

type Aim = "best" | "bust" | number;

/** A whole duel up to settle, every step composed by the API and signed by the player's own wallet. */
async function playUntilReady(aimA: Aim, aimB: Aim) {
  const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
  await world.send(a, await world.revealOf(duelId, secretA.secret));
  await world.send(b, await world.revealOf(duelId, secretB.secret));
  const { data: seeded } = await world.free(`/duel/seed?duelId=${duelId}`);
  const moves = new Map<Player, { hits: number; salt: Hex }>([
    [a, { hits: await chooseHits(world, seeded.seed, true, aimA), salt: toHex(randomBytes(32)) }],
    [b, { hits: await chooseHits(world, seeded.seed, false, aimB), salt: toHex(randomBytes(32)) }],
  ]);
  for (const [player, { hits, salt }] of moves) {
    await world.send(player, await world.commitOf(duelId, player, hits, salt));
  }
  for (const [player, { hits, salt }] of moves) {
    await world.send(player, await world.revealMovesOf(duelId, hits, salt));
  }
  return { duelId, seed: seeded.seed as Hex, hits: { a: moves.get(a)!.hits, b: moves.get(b)!.hits } };
}

/** Net wei each party gained over `work`, gas added back, so only the duel's money shows. */
async function netOf(work: () => Promise<void>) {
  const parties = [a.address, b.address, keeper.address, house, world.devnet.duelEscrow];
  const before = await Promise.all(parties.map(async (p) => (await world.balance(p)) + world.gasOf(p)));
  await work();
  const after = await Promise.all(parties.map(async (p) => (await world.balance(p)) + world.gasOf(p)));
  const [na, nb, nk, nh, ne] = after.map((x, i) => x - before[i]);
  return { a: na, b: nb, keeper: nk, house: nh, escrow: ne };
}

async function settleThroughState(duelId: number) {
  const ready = await world.state(duelId);
  assert.equal(ready.phase, "ready");
  assert.equal(ready.next.action, "settle");
  assert.equal(ready.result.final, false);
  await world.send(keeper, ready.next.tx);
  const settled = await world.state(duelId);
  assert.equal(settled.phase, "settled");
  assert.equal(settled.result.final, true);
  assert.deepEqual(settled.result.payouts, ready.result.payouts, "the computed result is what settle paid");
  assert.equal(settled.result.outcome, ready.result.outcome);
  assert.equal(settled.next, null);
  assert.equal(settled.escrowed, "0");
  return settled;
}

test("duel: player A wins; the better hand takes the pot minus the 3% rake and anyone can settle", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId } = await playUntilReady("best", "bust");
    settled = await settleThroughState(duelId);
  });
  assert.equal(settled.result.outcome, "a-wins");
  assert.equal(settled.result.winner, "a");
  assert.equal(settled.hands.b.bust, true);
  assert.ok(settled.hands.a.score > 0);
  assert.equal(net.a, STAKE - RAKE);
  assert.equal(net.b, -STAKE);
  assert.equal(net.house, RAKE);
  assert.equal(net.keeper, 0n, "settling costs the keeper only gas");
  assert.equal(net.escrow, 0n);
});

test("duel: player A loses to the better hand", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId } = await playUntilReady("bust", "best");
    settled = await settleThroughState(duelId);
  });
  assert.equal(settled.result.outcome, "b-wins");
  assert.equal(settled.result.payouts.b, (2n * STAKE - RAKE).toString());
  assert.equal(net.a, -STAKE);
  assert.equal(net.b, STAKE - RAKE);
  assert.equal(net.house, RAKE);
});

test("duel: a tie refunds both stakes in full, with no rake", async () => {
  let settled: any;
  const net = await netOf(async () => {
    const { duelId } = await playUntilReady("bust", "bust");
    settled = await settleThroughState(duelId);
  });
  assert.equal(settled.result.outcome, "tie");
  assert.equal(settled.result.winner, null);
  assert.deepEqual(settled.result.payouts, { a: STAKE.toString(), b: STAKE.toString(), rake: "0", tip: "0" });
  assert.deepEqual(net, { a: 0n, b: 0n, keeper: 0n, house: 0n, escrow: 0n });
});

test("duel/state: tells who must do what next, phase by phase", async () => {
  const { duelId, secretA, secretB } = await world.openAndJoin(a, undefined);
  const open = await world.state(duelId);
  assert.equal(open.phase, "open");
  assert.equal(open.escrowed, STAKE.toString());
  assert.equal(open.next.action, "join");
  assert.equal(open.players.b, null);
  await world.send(b, await world.paid("duel/join", { duelId, commitmentB: secretB.commitment }));
  const joined = await world.state(duelId);
  assert.equal(joined.phase, "reveal-secrets");
  assert.equal(joined.escrowed, (2n * STAKE).toString());
  assert.deepEqual([joined.next.action, joined.next.who], ["reveal", "both"]);
  assert.equal(joined.secondsLeft, 600);
  await world.send(a, await world.revealOf(duelId, secretA.secret));
  const half = await world.state(duelId);
  assert.deepEqual([half.next.who, half.next.players], ["b", [b.address]]);
  assert.equal(half.seed, null);
  const seed = await world.free(`/duel/seed?duelId=${duelId}`);
  assert.deepEqual([seed.data.seed, seed.data.secrets.a, seed.data.secrets.b], [null, secretA.secret, null]);
  await world.send(b, await world.revealOf(duelId, secretB.secret));
  const seeded = await world.state(duelId);
  assert.equal(seeded.phase, "commit-moves");
  assert.match(seeded.seed, /^0x[0-9a-f]{64}$/);
  assert.equal(seeded.next.action, "commit");
});

test("duel: a wrong secret or wrong moves are refused by the contract", async () => {
  const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
  const wrong = await world.revealOf(duelId, secretB.secret);
  assert.equal(await world.revertName(a, wrong), "WrongSecret");
  const outsider = await world.revealOf(duelId, secretA.secret);
  assert.equal(await world.revertName(keeper, outsider), "NotPlayer");
  await world.send(a, outsider);
  assert.equal(await world.revertName(a, outsider), "AlreadyActed");
  await world.send(b, await world.revealOf(duelId, secretB.secret));
  const salt = toHex(randomBytes(32));
  await world.send(a, await world.commitOf(duelId, a, 1, salt));
  await world.send(b, await world.commitOf(duelId, b, 0, toHex(randomBytes(32))));
  const lie = await world.revealMovesOf(duelId, 2, salt);
  assert.equal(await world.revertName(a, lie), "WrongMoves");
  const truth = await world.revealMovesOf(duelId, 1, salt);
  assert.equal(await world.revertName(b, truth), "WrongMoves", "B cannot reveal A's moves as its own");
  await world.send(a, truth);
});

test("duel: a copied move commitment is refused, and the same moves hash differently for each player", async () => {
  const { duelId, secretA, secretB } = await world.openAndJoin(a, b);
  await world.send(a, await world.revealOf(duelId, secretA.secret));
  await world.send(b, await world.revealOf(duelId, secretB.secret));
  const salt = toHex(randomBytes(32));
  const commitA = await world.commitOf(duelId, a, 1, salt);
  assert.notEqual(commitA.data, (await world.commitOf(duelId, b, 1, salt)).data);
  await world.send(a, commitA);
  assert.equal(await world.revertName(b, commitA), "CommitmentCopied");
});

test("duel/join: a duel that is not open is a 409 and one that does not exist a 404, neither charged", async () => {
  const { duelId, secretB } = await world.openAndJoin(a, b);
  const taken = await world.service.call("duel/join", { duelId, commitmentB: secretB.commitment });
  assert.equal(taken.status, 409);
  assert.equal(errorOf(taken).code, "duel_not_open");
  const missing = await world.service.call("duel/join", { duelId: 999_999, commitmentB: secretB.commitment });
  assert.equal(missing.status, 404);
  assert.equal((await world.service.call(duelState, { duelId: 999_999 })).status, 404);
});

test("duel/join: player B must commit to a different secret than player A", async () => {
  const { duelId, secretA } = await world.openAndJoin(a, undefined);
  const out = await world.service.call("duel/join", { duelId, commitmentB: secretA.commitment });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "commitmentB");
  const composed = await world.free(
    `/duel/tx?action=join&duelId=${duelId}&commitment=${(await world.secret()).commitment}`,
  );
  assert.equal(await world.revertName(a, composed), "OwnDuel");
});

test("duel/create: the bare transaction carries the stake in wei; stakes outside the escrow's limits are a 400", async () => {
  const { commitment } = await world.secret();
  const tx = await world.paid("duel/create", { commitmentA: commitment, stake: 0.0002 });
  assert.deepEqual(Object.keys(tx).sort(), ["data", "to", "value"]);
  assert.equal(tx.to, world.devnet.duelEscrow);
  assert.equal(BigInt(tx.value), 2n * 10n ** 14n);
  for (const stake of [0.00001, 11]) {
    const out = await world.service.call("duel/create", { commitmentA: commitment, stake });
    assert.equal(out.status, 400);
    assert.equal(issuesOf(out)[0].field, "stake");
  }
});

test("duel/quote and duel/feed: the deployed terms, and only duels still open", async () => {
  const quote = (await world.free("/duel/quote")).data;
  assert.deepEqual(
    [
      quote.contract,
      quote.rakeBps,
      quote.rakeCapBps,
      quote.tipBps,
      quote.stake.minEth,
      quote.stake.maxEth,
      quote.windows.phaseSeconds,
    ],
    [world.devnet.duelEscrow, 300, 1000, 100, "0.0001", "10", 600],
  );
  const { duelId } = await world.openAndJoin(a, undefined, 0.0003);
  const { duelId: joined } = await world.openAndJoin(a, b);
  const feed = (await world.free("/duel/feed?limit=100")).data;
  const listed = feed.duels.map((d: any) => d.duelId);
  assert.ok(listed.includes(duelId));
  assert.ok(!listed.includes(joined));
  assert.equal(feed.duels.find((d: any) => d.duelId === duelId).stakeEth, "0.0003");
  assert.ok(feed.latestDuelId >= joined);
});

test("duel: the paid routes answer 402 without payment, the helpers are free", async () => {
  const res = await world.service.request("/v1/duel/state?duelId=1");
  assert.equal(res.status, 402);
  const post = await world.service.request("/v1/duel/create", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ commitmentA: `0x${"11".repeat(32)}`, stake: 0.01 }),
  });
  assert.equal(post.status, 402);
  assert.equal((await world.service.request("/duel/quote")).status, 200);
});
