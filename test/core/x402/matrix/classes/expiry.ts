import assert from "node:assert/strict";
import { assertRunsAndWrites, creditedBy } from "../counts.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * The payment stops being valid while the handler runs (an authorization's validBefore, a permit's deadline, a
 * blockhash passes): the answer is withheld, nothing is written, nothing moves, nothing is credited.
 */
export async function expiry(way: Way, w: World, key: string) {
  const { req, keys } = way.write(key);
  const { answer, payer } = await way.expiring!(req, keys);
  assert.notEqual(answer.status, 200, "the answer is withheld");
  assert.equal(JSON.stringify(answer.body ?? "").includes(`"key":"${key}`), false, "no part of the answer");
  await w.one.reconciler.reconcileOnce();
  await assertRunsAndWrites(w, keys, 1, 0);
  const spent = await payer.spent();
  assert.deepEqual([spent.value, spent.transfers], [0n, 0], "value and transfers that left the payer");
  assert.equal(await creditedBy(w, answer, payer), 0n, "credited");
}
