import assert from "node:assert/strict";
import { assertRunsAndWrites, race } from "../counts.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/** Six copies of one payment at once, alternating between the two instances on one redis-server: one grant. */
export async function copies(way: Way, w: World, key: string) {
  const payer = await way.payer(1);
  const { req, keys } = way.write(key);
  const payment = await payer.pay(req);
  const answers = await race(w, Array(6).fill(payment), keys[0]);
  const statuses = answers.map((a) => a.status);
  const refused = answers
    .filter((a) => a.status !== 200 && a.status !== 409)
    .map((a) => a.body?.reason ?? a.body?.error?.code);
  assert.equal(statuses.filter((s) => s === 200).length, 1, `answers (${statuses}; ${refused})`);
  await assertRunsAndWrites(w, keys, 1, 1);
  const spent = await payer.spent();
  assert.equal(spent.value, way.charge, "value that left the payer");
  assert.ok(spent.transfers <= 1, `${spent.transfers} transfers`);
}
