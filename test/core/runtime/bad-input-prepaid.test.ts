// test: own-process: heavy: a sweep that runs beside the others
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  badInputs,
  concurrency,
  endpoints,
  errorBodyProblems,
  fromClosedUpstreams,
  knownFailures,
  payer,
  reachesOut,
  service,
} from "./_bad-input.ts";

describe("bad input as a prepaid call: validation then handler, never a 500", { concurrency }, () => {
  for (const e of endpoints) {
    it(e.name, { skip: knownFailures.get(e.name) }, async () => {
      const problems: string[] = [];
      for (const bad of badInputs(e)) {
        const out = await service.callAs(e.needsWallet ? payer : undefined, e.name, bad.input);
        if (out.status < 300) continue;
        const upstreamFailure =
          fromClosedUpstreams.has(out.status) && reachesOut(e) && (out.body as any)?.error?.code !== "invalid_output";
        if (out.status >= 500 && !upstreamFailure)
          problems.push(`${bad.label}: ${out.status} ${JSON.stringify(out.body).slice(0, 300)}`);
        problems.push(...errorBodyProblems(bad.label, out.body));
      }
      assert.deepEqual(problems, []);
    });
  }
});
