import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { redisMissing } from "../helpers/redis.ts";
import { accountOf } from "../helpers/rail.ts";
import { freshPort, startInstance, startRig, type Instance, type Rig, type Step } from "./_rig.ts";
import { assertBalanced, crashAt, expected } from "./_scenario.ts";

export const when: Record<Step, string> = {
  claimed: "right after the claim",
  handled: "after the handler, before the write-ahead record",
  "written-ahead": "after the write-ahead record, before the settlement is sent",
  settled: "after the settlement is mined, before it is recorded or the effects applied",
  "effects-applied": "after the effects, before the settled record",
};

/**
 * One test per step: an exact (EIP-3009) paid /v1/store call whose instance is killed with SIGKILL there, then
 * finished either by the same instance restarted on its port, or by a second instance already running on the
 * same Redis. Charged = answered + credited, the write applied once per paid answer, the handler run at most once.
 */
export function crashTests(steps: Step[], finishedBy: "restart" | "other") {
  let rig: Rig;
  let survivor: Instance | undefined;
  before(async () => {
    if (redisMissing) return;
    rig = await startRig();
    if (finishedBy === "other") survivor = await startInstance(rig, await freshPort());
  });
  after(async () => {
    await survivor?.stop();
    await rig?.stop();
  });
  const how = finishedBy === "restart" ? "restarted" : "the other instance finishes";
  steps.forEach((step, i) => {
    test(`killed ${when[step]}; ${how}: charged = answered + credited`, { skip: redisMissing }, async () => {
      const finisher = (dead: Instance) => (survivor ? Promise.resolve(survivor) : startInstance(rig, dead.port));
      const counts = await crashAt(rig, step, accountOf(rig.devnet, i), finisher, survivor !== undefined);
      assertBalanced(counts);
      const { handlerRuns, ...rest } = counts;
      assert.deepEqual(rest, expected[step]);
      assert.equal(handlerRuns, step === "claimed" ? 0 : 1, "the handler ran once at most");
    });
  });
}
