import assert from "node:assert/strict";
import { batchOf, item, type Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * What is settled, in which units: a write costs its price in the option's own decimals (10^15 of an 18-decimal
 * token for $0.001), and a pay-as-used call settles what it used converted into the option's units.
 */
export async function units(way: Way, w: World, key: string) {
  for (const [i, v] of [way, ...(way.variants ?? [])].entries()) await once(v, w, `${key}-${i}`);
}

async function once(way: Way, w: World, key: string) {
  const payer = await way.payer(4);
  const one = await (await payer.pay(way.write(`${key}-1`).req)).send(w.one);
  assert.equal(one.status, 200, JSON.stringify(one.body));
  const { value } = await payer.spent();
  assert.equal(value, way.charge, `one write paid by ${way.name}`);
  if (!way.asUsed) return;
  const two = await (await payer.pay(batchOf(item(`${key}-2`), item(`${key}-3`)))).send(w.two);
  assert.equal(two.status, 200, JSON.stringify(two.body));
  const used = (await payer.spent()).value - value;
  assert.equal(used, 2n * way.charge, `a batch that used two writes, paid by ${way.name}`);
}
