import { test } from "node:test";
import assert from "node:assert/strict";
import { diceOutcome, rollDice, seedOf } from "../../../plugins/arcade/_fair.js";
import type { PlayResult } from "../../../plugins/arcade/_schemas.ts";
import { arcadeService, data, player } from "./_arcade.ts";

test("grinding: of 1,000 salts tried against the latest known block, those that roll seven on it win no more often than chance", async (t) => {
  const a = await arcadeService(t);
  const known = a.chain.head();
  const salts = Array.from({ length: 1000 }, (_, i) => `grind-${i}`);
  const chosen: string[] = [];
  for (const salt of salts)
    if (diceOutcome("seven", await rollDice(await seedOf(known.hash, salt))) === "win") chosen.push(salt);
  assert.ok(chosen.length > 120, `the grinder kept ${chosen.length} salts that would all win on block ${known.number}`);

  for (const salt of chosen) {
    const out = await a.service.call("arcade/play", {
      game: "dice",
      choice: "seven",
      salt,
      player: player("grinder", "grinder-secret"),
    });
    assert.equal(out.status, 200);
    assert.equal(data(out).status, "pending");
  }
  const block = await a.mineAndDraw();
  const store = a.service.runtime.store;
  const records = await Promise.all((await store.keys("arcade:play:")).map((key) => store.get<PlayResult>(key)));
  assert.equal(records.length, chosen.length);
  assert.ok(
    records.every(
      (r) =>
        r?.status === "settled" && r.fairness?.blockNumber === known.number + 1 && r.fairness.blockHash === block.hash,
    ),
    "every play was drawn by the block after the known one",
  );

  const wins = records.filter((r) => r?.outcome === "win").length;
  const n = chosen.length;
  const mean = n / 6;
  const sd = Math.sqrt(n * (1 / 6) * (5 / 6));
  // On the known block all of them would have won; on the next one a seven comes 1 time in 6 (3.3 sd: p < 0.001 two-sided).
  assert.ok(
    Math.abs(wins - mean) <= 3.3 * sd,
    `${wins} wins of ${n} (chance: ${mean.toFixed(1)} ± ${(3.3 * sd).toFixed(1)})`,
  );
  console.log(
    `# grinding: ${chosen.length} of 1000 salts roll seven on known block ${known.number}; on block ${block.number} they won ${wins} (${((100 * wins) / n).toFixed(1)}%, chance 16.7%)`,
  );
});
