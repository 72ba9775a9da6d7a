import assert from "node:assert/strict";
import { meter, sumRuns } from "../counts.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/**
 * What a payment costs us before it is paid. A forged one: no JSON-RPC request at all. An unfunded one: no
 * transaction sent, no gas, no fee-payer lamports. Then the way's own worst cases (a wallet funded for one
 * sending several at once; a Solana transaction with the most compute and signers the binding lets through).
 */
export async function cost(way: Way, w: World, key: string) {
  for (const [what, make] of [
    ["forged", way.forged!],
    ["unfunded", way.unfunded!],
  ] as const) {
    const { req, keys } = way.write(`${key}-${what}`);
    const payment = await make(req);
    const used = await meter(w);
    const answer = await payment.send(w.one);
    const spent = await used();
    assert.ok(answer.status >= 400, `${what}: answered ${answer.status}`);
    assert.equal(sumRuns(keys), 0, `${what}: handler runs`);
    if (what === "forged") assert.equal(spent.rpc, 0, `${what}: JSON-RPC requests`);
    assert.deepEqual([spent.sends, spent.reverted, spent.lamports], [0, 0, 0n], `${what}: sends, reverts, lamports`);
  }
  for (const bound of (await way.costs?.(w, key)) ?? [])
    assert.ok(bound.actual <= bound.atMost, `${bound.what}: ${bound.actual}, at most ${bound.atMost}`);
}
