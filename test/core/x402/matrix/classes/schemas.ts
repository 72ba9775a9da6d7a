import assert from "node:assert/strict";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { meter, sumRuns } from "../counts.ts";
import type { Way } from "../way.ts";
import type { World } from "../world.ts";

/** Exponential on the identifier below: seconds of one core wherever a client's pattern is compiled and run. */
const catastrophic = {
  "payment-identifier": {
    info: { required: false, id: `${"a".repeat(26)}_` },
    schema: { type: "object", properties: { id: { type: "string", pattern: "^(a+)+$" } } },
  },
};
/** A forged payment's whole path takes a few milliseconds; a busy machine may pause the loop for a hundred. */
const boundMs = 300;

/**
 * A forged payment carrying a payment-identifier extension with its own JSON schema (a catastrophic pattern):
 * nothing the client supplies is compiled or run, so the event loop stays free and nothing reaches a chain.
 */
export async function schemas(way: Way, w: World, key: string) {
  const { req, keys } = way.write(key);
  const payment = await way.forged!(req, catastrophic);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const used = await meter(w);
  // The histogram samples from its timer's first tick on, and records a blocked loop when the timer next fires.
  const ticks = () => new Promise((resolve) => setTimeout(resolve, 50));
  delay.enable();
  await ticks();
  const answer = await payment.send(w.one);
  await ticks();
  delay.disable();
  const maxMs = delay.max / 1e6;
  assert.ok(answer.status >= 400, `a forged payment answered ${answer.status}`);
  assert.ok(maxMs < boundMs, `the event loop was blocked ${Math.round(maxMs)} ms (bound ${boundMs} ms)`);
  assert.equal(sumRuns(keys), 0, "handler runs");
  assert.equal((await used()).rpc, 0, "JSON-RPC requests");
}
