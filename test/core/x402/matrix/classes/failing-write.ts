import assert from "node:assert/strict";
import { assertRunsAndWrites, creditedBy, inUsdc } from "../counts.ts";
import { writesOf } from "../plugin.ts";
import { failingBatch, type Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * A paid call with parts (a batch, a bundle, a bundle inside a batch) one of whose writes fails after payment:
 * a credit is only for what was not delivered. What the service keeps (paid minus credited) covers every write
 * that stayed, and leaves out the price of the write that failed: never a write kept and refunded too.
 */
export async function failingWrite(way: Way, w: World, key: string) {
  for (const [i, v] of [way, ...(way.variants ?? [])].entries()) await once(v, w, `${key}-${i}`);
}

async function once(way: Way, w: World, key: string) {
  const failing = (way.failing ?? failingBatch)(key);
  const payer = await way.payer(60);
  const answer = await (await payer.pay(failing.req)).send(w.one);
  const items = [...failing.delivered, ...failing.failed];
  await assertRunsAndWrites(
    w,
    failing.failed.map((f) => f.key),
    1,
    0,
  );
  for (const d of failing.delivered) assert.ok((await writesOf(w.one.store, d.key)) <= 1, `writes of ${d.key}`);
  const paid = inUsdc(way, (await payer.spent()).value);
  const kept = paid - (await creditedBy(w, answer, payer));
  let delivered = 0n;
  for (const d of failing.delivered) delivered += d.price * BigInt(await writesOf(w.one.store, d.key));
  const failedPrice = failing.failed.reduce((sum, f) => sum + f.price, 0n);
  const quote = way.asUsed ? items.reduce((sum, f) => sum + f.price, 0n) : failing.quote;
  const what = `${answer.status}: paid ${paid}, kept ${kept}, writes delivered worth ${delivered}`;
  assert.ok(kept >= delivered, `${what}: a write that stayed was refunded too`);
  assert.ok(kept <= quote - failedPrice, `${what}: the failed write's ${failedPrice} was kept`);
}
