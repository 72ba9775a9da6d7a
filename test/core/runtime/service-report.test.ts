import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { testUpstreams } from "./_upstreams.ts";
import { dataOf } from "../../helpers/expect.ts";

const echo = defineEndpoint({
  name: "echo",
  method: "GET",
  price: "$0.001",
  summary: "Echoes n",
  input: v.object({ n: v.number() }),
  output: v.object({ n: v.number() }),
  example: { input: { n: 1 }, output: { n: 1 } },
  handler: ({ input }) => ({ n: input.n }),
});
const quote = defineEndpoint({
  name: "quote",
  method: "GET",
  price: "$0.001",
  summary: "Reads an upstream",
  upstreams: ["frankfurter"],
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: async (ctx) => ({ ok: Boolean(await ctx.upstream("frankfurter").json("/v1/latest")) }),
});

test("the report gives per-endpoint success rates and latency, upstream circuits, settlements and the version", async (t) => {
  const fixtures = await serveFixtures(
    t,
    [
      {
        request: { method: "GET", path: "/v1/latest" },
        response: { status: 500, body: { message: "down" } },
        source: "test: an upstream that fails",
      },
    ],
    { reuse: true },
  );
  const service = await startTestService({
    given: [
      definePlugin({ family: "demo", endpoints: [echo, quote], upstreams: { frankfurter: testUpstreams.frankfurter } }),
    ],
    env: { UPSTREAM_FRANKFURTER_URL: fixtures.url },
  });
  for (const n of [1, 2, 3]) assert.equal((await service.call("echo", { n })).status, 200);
  assert.equal((await service.call("echo", { n: "x" })).status, 400);
  assert.equal((await service.call("quote", {})).status, 502);

  const out = await service.call("service", {});
  assert.equal(out.status, 200);
  const report = dataOf(out);
  assert.match(report.version, /^\d+\.\d+\.\d+$/);
  const echoStats = report.endpoints.find((e: any) => e.endpoint === "echo");
  assert.deepEqual(
    [echoStats.calls, echoStats.ok, echoStats.clientErrors, echoStats.serverErrors, echoStats.successRate],
    [4, 3, 1, 0, 1],
  );
  assert.ok(echoStats.latencyMs.p50 <= echoStats.latencyMs.p99);
  const quoteStats = report.endpoints.find((e: any) => e.endpoint === "quote");
  assert.deepEqual([quoteStats.serverErrors, quoteStats.successRate], [1, 0]);
  assert.deepEqual(report.upstreams, [{ name: "frankfurter", circuit: "closed" }]);
  assert.deepEqual(report.settlements, { settled: 0, settledUsdc: "0", failed: 0, indeterminate: 0, pending: 0 });
  assert.equal(report.endpointsLoaded, service.runtime.endpoints.length);
});
