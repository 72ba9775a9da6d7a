import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import {
  coinPair,
  diceOutcome,
  drawStage,
  HIGHERLOWER_COINS,
  jsonRpcChain,
  rollDice,
  seedOf,
  shuffled,
  streamOf,
  uniformBelow,
  verifyFairness,
  verifyOnChain,
  type Check,
} from "../../../plugins/arcade/_fair.js";
import { playerIdOf } from "../../../plugins/arcade/_points.ts";
import { arcadeService, data, player } from "./_arcade.ts";

const seeds = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => createHash("sha256").update(`${tag}:${i}`).digest("hex"));
const chiSquare = (counts: number[]) => {
  const expected = counts.reduce((a, b) => a + b) / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
};

test("rejection sampling throws away the words of the incomplete last cycle", async () => {
  const words = [2 ** 32 - 1, 2 ** 32 - 4, 2 ** 32 - 5, 7];
  const source = async () => words.shift()!;
  // For 6 the last 4 words (2^32 mod 6) are rejected: 2^32-1 and 2^32-4 go, 2^32-5 is kept.
  assert.equal(await uniformBelow(6, source), (2 ** 32 - 5) % 6);
  assert.deepEqual(words, [7]);
  await assert.rejects(uniformBelow(0, source), RangeError);
});

test("no modulo bias: a range that does not divide 2^32 still draws uniformly", async () => {
  const m = 3 * 2 ** 30;
  let low = 0;
  const n = 2400;
  for (const seed of seeds(n, "bias")) if ((await streamOf(seed).below(m)) < 2 ** 30) low++;
  // Plain `word % m` would put half the draws below 2^30; uniform puts a third there.
  assert.ok(Math.abs(low / n - 1 / 3) < 0.04, `share below 2^30: ${low / n}`);
});

test("dice and 52-way draws are uniform over many seeds (chi-square, p = 0.001)", async () => {
  const faces = Array(6).fill(0);
  const totals = Array(11).fill(0);
  for (const seed of seeds(3000, "dice")) {
    const [a, b] = await rollDice(seed);
    faces[a - 1]++;
    faces[b - 1]++;
    totals[a + b - 2]++;
  }
  assert.ok(chiSquare(faces) < 20.52, `faces ${faces}`);
  assert.ok(totals[5] > totals[0] * 4, "sums follow the two-dice triangle, 7 the most common");
  const cards = Array(52).fill(0);
  for (const seed of seeds(5200, "deck")) cards[await streamOf(seed).below(52)]++;
  assert.ok(chiSquare(cards) < 87.97, `cards ${cards}`);
});

test("higherlower coins are two distinct coins of the list, drawn at once or stage by stage", async () => {
  for (const seed of seeds(200, "pair")) {
    const { shown, hidden } = await coinPair(seed);
    assert.notEqual(shown, hidden);
    assert.ok(HIGHERLOWER_COINS.includes(shown) && HIGHERLOWER_COINS.includes(hidden));
    const staged = await drawStage("higherlower", "choose", seed, (await drawStage("higherlower", "show", seed)).state);
    assert.notEqual(staged.state.shown, staged.state.hidden);
  }
});

test("each blackjack stage shuffles only the cards not yet dealt", async () => {
  const [a, b] = seeds(2, "stages");
  const dealt = await drawStage("blackjack", "deal", a);
  const rest = await shuffled(
    b,
    (await shuffled(a)).filter((c) => !dealt.state.used!.includes(c)),
  );
  assert.equal(rest.length, 52 - dealt.drawn.length);
  assert.ok(rest.every((card) => !dealt.drawn.includes(card)));
  await assert.rejects(drawStage("blackjack", "hit", b, {}), /no stage hit/);
});

/** A record changed so its draws still add up: only the chain can tell. */
async function forged(record: any, change: { blockHash?: string; blockNumber?: number; acceptedAt?: string }) {
  const stage = { ...record.stages[0], ...change };
  stage.seedHex = await seedOf(stage.blockHash, record.salt);
  const next = await drawStage(record.game, stage.action, stage.seedHex);
  stage.drawn = next.drawn;
  return {
    ...record,
    stages: [stage],
    blockHash: stage.blockHash,
    blockNumber: stage.blockNumber,
    seedHex: stage.seedHex,
    acceptedAt: stage.acceptedAt,
    derived: { dice: next.drawn },
    outcome: diceOutcome(record.choice, next.drawn as number[]),
  };
}

const cli = fileURLToPath(new URL("../../../plugins/arcade/_verify-cli.ts", import.meta.url));
const verifyPlay = async (...args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", cli, ...args], { encoding: "utf8" }).then(
    (r) => ({ status: 0, ...r }),
    (e) => ({ status: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
  );

test("verification: a forged block hash or number is refused by verifyOnChain and by npm run verify-play; the real record passes", async (t) => {
  const a = await arcadeService(t);
  await a.service.call("arcade/play", { game: "dice", choice: "over", salt: "v-1", player: player() });
  await a.mineAndDraw();
  const [play] = data(await a.service.call("arcade/me", { id: playerIdOf("ada", "correct horse battery") })).plays;
  const real = play.fairness;
  const chain = jsonRpcChain(a.chain.url);
  const otherHash = `0x${"ab".repeat(32)}`;
  const cases = {
    real,
    hash: await forged(real, { blockHash: otherHash }),
    "number far ahead": await forged(real, { blockNumber: 999_999_999 }),
    "number of another block": await forged(real, { blockNumber: real.blockNumber - 1, blockHash: real.blockHash }),
    "block before acceptance": await forged(real, {
      acceptedAt: new Date(Date.parse(real.acceptedAt) + 3_600_000).toISOString(),
    }),
  };
  for (const [name, record] of Object.entries(cases))
    assert.equal((await verifyFairness(record)).ok, true, `${name}: its draws add up`);
  const onChain: Record<string, Check> = Object.fromEntries(
    await Promise.all(Object.entries(cases).map(async ([name, record]) => [name, await verifyOnChain(record, chain)])),
  );
  assert.deepEqual(Object.fromEntries(Object.entries(onChain).map(([name, check]) => [name, check.ok])), {
    real: true,
    hash: false,
    "number far ahead": false,
    "number of another block": false,
    "block before acceptance": false,
  });
  assert.match(
    onChain.hash.problems[0],
    new RegExp(`the chain's hash is ${real.blockHash}, the record says ${otherHash}`),
  );
  assert.match(onChain["number far ahead"].problems[0], /block 999999999: the chain has no such block yet/);
  assert.match(onChain["block before acceptance"].problems[0], /before the stage was accepted/);

  const ok = await verifyPlay("--rpc", a.chain.url, JSON.stringify({ meta: {}, data: play }));
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^OK: eip155:84532 has these blocks, mined after each stage was accepted/m);
  for (const name of ["hash", "number far ahead", "number of another block"] as const) {
    const refused = await verifyPlay("--rpc", a.chain.url, JSON.stringify(cases[name]));
    assert.equal(refused.status, 1, `${name}: ${refused.stdout}`);
    assert.match(refused.stdout, /^MISMATCH stage 1 \(roll\) block \d+: /m);
  }
  const wrongNetwork = await verifyPlay("--rpc", a.chain.url, JSON.stringify({ ...real, network: "eip155:8453" }));
  assert.equal(wrongNetwork.status, 1);
  assert.match(wrongNetwork.stdout, /MISMATCH network: the chain asked is eip155:84532, the record says eip155:8453/);
  const usage = await verifyPlay();
  assert.equal(usage.status, 2);
});
