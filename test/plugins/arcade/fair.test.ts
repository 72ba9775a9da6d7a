import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { coinPair, HIGHERLOWER_COINS, rollDice, seedOf, streamOf, uniformBelow, verifyFairness } from "../../../plugins/arcade/_fair.js";
import { dicePlayExample } from "../../../plugins/arcade/_examples.ts";

const seeds = (n: number, tag: string) => Array.from({ length: n }, (_, i) => createHash("sha256").update(`${tag}:${i}`).digest("hex"));
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

test("higherlower pairs are two distinct coins of the list", async () => {
  for (const seed of seeds(200, "pair")) {
    const { shown, hidden } = await coinPair(seed);
    assert.notEqual(shown, hidden);
    assert.ok(HIGHERLOWER_COINS.includes(shown) && HIGHERLOWER_COINS.includes(hidden));
  }
});

test("verifyFairness recomputes the seed and the draws, and names every difference", async () => {
  const record = dicePlayExample.output.fairness!;
  assert.equal(record.seedHex, await seedOf(record.blockHash, record.salt));
  assert.deepEqual(await verifyFairness(record), { ok: true, seedHex: record.seedHex, recomputed: { dice: [4, 5] }, problems: [] });
  const forged = await verifyFairness({ ...record, seedHex: "00".repeat(32), derived: { dice: [6, 6] } });
  assert.equal(forged.ok, false);
  assert.equal(forged.problems.length, 2);
  assert.equal((await verifyFairness({ ...record, game: "funding" })).ok, false);
});

const cli = fileURLToPath(new URL("../../../plugins/arcade/_verify-cli.ts", import.meta.url));
const verifyPlay = (arg: string) => spawnSync(process.execPath, ["--import", "tsx", cli, arg], { encoding: "utf8" });

test("npm run verify-play checks a fairness record, a whole answer, and refuses a forged one", () => {
  const record = dicePlayExample.output.fairness!;
  const ok = verifyPlay(JSON.stringify(record));
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^OK: block 1234 .* give exactly this result$/m);
  assert.equal(verifyPlay(JSON.stringify({ meta: {}, data: dicePlayExample.output })).status, 0);
  const forged = verifyPlay(JSON.stringify({ ...record, derived: { dice: [6, 6] } }));
  assert.equal(forged.status, 1);
  assert.match(forged.stdout, /MISMATCH dice: recomputed \[4,5\], the record says \[6,6\]/);
});
