import assert from "node:assert/strict";
import { assertRunsAndWrites, race } from "../counts.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * One payment spelled every way the fields of its claim key can be spelled (nonces with leading zeros or in
 * another case, addresses in another case), all at once on both instances: one claim, one run, one transfer.
 */
export async function spellings(way: Way, w: World, key: string) {
  const payer = await way.payer(1);
  const { req, keys } = way.write(key);
  const spelled = await way.respell!(payer, req);
  const answers = await race(w, spelled, keys[0]);
  const statuses = answers.map((a) => a.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, `answers to ${spelled.length} spellings (${statuses})`);
  await assertRunsAndWrites(w, keys, 1, 1, ` (${statuses})`);
  const spent = await payer.spent();
  assert.equal(spent.value, way.charge, "value that left the payer");
  assert.ok(spent.transfers <= 1, `${spent.transfers} transfers`);
}
