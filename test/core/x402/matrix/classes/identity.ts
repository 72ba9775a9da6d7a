import assert from "node:assert/strict";
import { ownerOf, seen } from "../plugin.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * A payment that names a victim as its payer, the victim having signed nothing, sent to a wallet-keyed route on both
 * instances: no handler runs in the victim's name, nothing is written under it, nothing leaves it.
 */
export async function identity(way: Way, w: World, key: string) {
  const victim = await way.victim!();
  const { req, keys } = (way.wallet ?? ((k) => ({ req: { name: "matrix-mine", args: { key: k } }, keys: [k] })))(key);
  const { payment, attacker } = await way.forge!(req, victim);
  const statuses = [(await payment.send(w.one)).status, (await payment.send(w.two)).status];
  for (const k of keys) {
    const payers = seen.payers.get(k) ?? [];
    assert.ok(!payers.some((p) => same(p, victim.id)), `${statuses}: ${k} ran as the victim`);
    assert.ok(!same(await ownerOf(w.one.store, k), victim.id), `${statuses}: ${k} was written as the victim's`);
  }
  assert.equal((await victim.spent()).value, 0n, "value that left the victim");
  if (attacker && !statuses.includes(200)) assert.equal((await attacker.spent()).value, 0n, "a refusal was charged");
}
