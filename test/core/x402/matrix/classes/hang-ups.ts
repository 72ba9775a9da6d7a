import assert from "node:assert/strict";
import { newPaymentId } from "../../../../helpers/sign.ts";
import { assertRunsAndWrites } from "../counts.ts";
import { holdRun, startedBefore } from "../plugin.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * The caller hangs up while the handler runs: the call runs to its end, is charged once and writes once; the
 * payer's retry on the other instance never runs it again (it gets the stored answer, or a refusal).
 */
export async function hangUps(way: Way, w: World, key: string) {
  const payer = await way.payer(1);
  const { req, keys } = way.write(key);
  const payment = await payer.pay(req, { paymentId: newPaymentId() });
  const hold = holdRun(keys[0]);
  const hangUp = new AbortController();
  const first = payment.send(w.one, hangUp.signal);
  await startedBefore(hold, first);
  hangUp.abort();
  hold.release();
  await first;
  await w.one.idle();
  const retry = await payment.send(w.two);
  assert.ok([200, 402, 409].includes(retry.status), `the retry answered ${retry.status}`);
  await assertRunsAndWrites(w, keys, 1, 1);
  const spent = await payer.spent();
  assert.equal(spent.value, way.charge, "value that left the payer");
  assert.ok(spent.transfers <= 1, `${spent.transfers} transfers`);
}
