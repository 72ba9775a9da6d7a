import assert from "node:assert/strict";
import { assertRunsAndWrites, creditedBy, inUsdc } from "../counts.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * The settlement's send reaches the chain and its reply is lost: nothing is lost with it. Either the settlement is
 * found (one transfer, the answer and its write delivered), or the answer is withheld, nothing is written, and
 * once reconciled (and past the payment's life on the chain) exactly what moved is credited.
 */
export async function lostReply(way: Way, w: World, key: string) {
  const payer = await way.payer(1);
  const { req, keys } = way.write(key);
  const payment = await payer.pay(req);
  const fault = way.loseReply!();
  const answer = await payment.send(w.one).finally(() => fault.done());
  if (answer.status === 200) {
    await assertRunsAndWrites(w, keys, 1, 1);
    const spent = await payer.spent();
    assert.deepEqual([spent.value, spent.transfers], [way.charge, 1], "value and transfers");
    return;
  }
  await assertRunsAndWrites(w, keys, 1, 0, ` (${answer.status} ${answer.body?.reason})`);
  await w.one.reconciler.reconcileOnce();
  // A Solana payment that has not landed is settled for good once its blockhash can no longer land.
  w.solana.node.skipMinute();
  await w.one.reconciler.reconcileOnce();
  const spent = await payer.spent();
  assert.ok(spent.transfers <= 1, `${spent.transfers} transfers`);
  const credited = await creditedBy(w, answer, payer);
  assert.equal(credited, inUsdc(way, spent.value), `${answer.body?.reason}: credited = what moved`);
}
