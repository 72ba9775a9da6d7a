import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { setTimeout as sleep } from "node:timers/promises";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { defineBundle } from "../../../plugins/bundles/_compose.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";

const part = (name: string, ms: number, fail = false) =>
  defineEndpoint({
    name,
    method: "GET",
    price: "$0.001",
    summary: name,
    input: v.object({ n: v.number() }),
    output: v.object({ n: v.number() }),
    example: { input: { n: 1 }, output: { n: 1 } },
    handler: async ({ input }) => {
      await sleep(ms);
      if (fail) throw new Error("broken");
      return { n: input.n * 2 };
    },
  });
const bundle = defineBundle({
  name: "pair",
  price: "$0.01",
  summary: "fast and slow",
  description: "Test bundle.",
  input: v.object({ n: v.number(), all: v.optional(v.boolean(), false) }),
  parts: { fast: "fast", slow: "slow", broken: "broken", missing: "missing" },
  deadlineMs: 150,
  plan: ({ n, all }) => ({ fast: all ? { n: "x" } : { n }, slow: { n }, broken: { n }, missing: { n } }),
  digest: v.object({ fast: v.nullable(v.number()) }),
  summarize: (data) => ({ fast: (data.fast as { n: number } | undefined)?.n ?? null }),
  example: { input: { n: 1 }, output: { summary: { fast: 2 }, parts: {}, skipped: [], failed: [] } },
});
const plugin = definePlugin({
  family: "t",
  endpoints: [part("fast", 5), part("slow", 1_000), part("broken", 1, true), bundle],
});

test("compose: parts run at once; a part past the deadline is a 504 in place, a broken one a 500, a missing one a 503", async () => {
  const service = await startTestService({ given: [plugin] });
  const started = performance.now();
  const out = await service.call("pair", { n: 21 });
  assert.ok(performance.now() - started < 900, "did not wait for the slow part");
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.summary, { fast: 42 });
  assert.deepEqual(data.parts.fast, {
    endpoint: "fast",
    status: 200,
    ok: true,
    ms: data.parts.fast.ms,
    data: { n: 42 },
  });
  assert.equal(data.parts.slow.status, 504);
  assert.equal(data.parts.slow.error.code, "deadline");
  assert.equal(data.parts.broken.status, 500);
  assert.equal(data.parts.missing.status, 503);
  assert.equal(data.parts.missing.error.code, "part_unavailable");
  assert.deepEqual(data.failed, ["slow", "broken", "missing"]);
  assert.deepEqual(bundle.composes, ["broken", "fast", "missing", "slow"]);
  assert.equal(bundle.timeoutMs, 2_150);
});

test("compose: every part failing is a 502 with each part's error, so nothing is charged", async () => {
  const service = await startTestService({ given: [plugin] });
  const out = await service.call("pair", { n: 1, all: true });
  assert.equal(out.status, 502);
  const error = errorOf<{ parts: Record<string, { status: number }> }>(out);
  assert.equal(error.code, "parts_failed");
  assert.equal(error.details!.parts.fast.status, 400);
  assert.equal(error.details!.parts.slow.status, 504);
});
