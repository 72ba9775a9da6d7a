import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { createReadiness } from "../../../core/runtime/readiness.ts";
import { chainProbe } from "../../../core/x402/probes.ts";
import { startTestService } from "../../helpers/service.ts";

/** An endpoint that answers only when the test lets it, and a job that stops only at its abort signal. */
function gatedPlugin() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const started = { calls: 0, job: false, jobStopped: false };
  // Resolved when the handler and the job have begun: the test waits for these events, not for a time.
  let callBegan = () => {};
  let jobBegan = () => {};
  const began = {
    call: new Promise<void>((resolve) => (callBegan = resolve)),
    job: new Promise<void>((resolve) => (jobBegan = resolve)),
  };
  const slow = defineEndpoint({
    name: "slow",
    method: "GET",
    price: "$0",
    summary: "Answers when released",
    input: v.object({}),
    output: v.object({ done: v.boolean() }),
    example: { input: {}, output: { done: true } },
    handler: async () => {
      started.calls++;
      callBegan();
      await released;
      return { done: true };
    },
  });
  const plugin = definePlugin({
    family: "gated",
    endpoints: [slow],
    jobs: [
      {
        name: "long-job",
        everyMs: 60_000,
        run: async (ctx) => {
          started.job = true;
          jobBegan();
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
          started.jobStopped = true;
        },
      },
    ],
  });
  return { plugin, release, started, began };
}

test("close() lets a running call finish, refuses new ones with a 503, says draining on /ready, and stops jobs", async () => {
  const { plugin, release, started, began } = gatedPlugin();
  const service = await startTestService({ given: [plugin] });
  assert.equal((await service.request("/ready")).status, 200);
  const running = service.request("/v1/slow");
  const job = service.jobs.run("long-job");
  await Promise.all([began.call, began.job]);

  let closed = false;
  const closing = service.close().then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(closed, false, "close waits for the running call");
  assert.equal(started.jobStopped, true, "the job saw its signal and stopped");

  const refused = await service.request("/v1/slow");
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.equal(started.calls, 1, "the refused call never reached the handler");
  const ready = await service.request("/ready");
  assert.equal(ready.status, 503);
  assert.equal((await ready.json()).status, "draining");

  release();
  const answer = await running;
  assert.equal(answer.status, 200);
  assert.deepEqual((await answer.json()).data, { done: true });
  await closing;
  assert.equal(closed, true);
  assert.equal(await job, true);
});

test("close() gives up on a call still running after SHUTDOWN_TIMEOUT_MS", async () => {
  const { plugin, release, began } = gatedPlugin();
  const service = await startTestService({ given: [plugin], env: { SHUTDOWN_TIMEOUT_MS: "100" } });
  const running = service.request("/v1/slow");
  await began.call;
  const t0 = performance.now();
  // The call is released only after close() returns: that it returns at all shows it gave up on the call.
  await service.close();
  const waited = performance.now() - t0;
  assert.ok(waited >= 90, `waited only ${waited} ms`);
  release();
  assert.equal((await running).status, 200);
});

test("/ready: 200 with every part ok; the store probe runs through the service's store", async () => {
  const service = await startTestService({ given: [gatedPlugin().plugin] });
  const res = await service.request("/ready");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(await res.json(), { status: "ready", checks: { store: "ok" } });
  await service.close();
});

test("readiness names the failing parts, times a hung probe out, and reuses a report for cacheMs", async () => {
  let clock = 0;
  const calls = { store: 0, chain: 0 };
  const readiness = createReadiness({
    probes: {
      store: async () => void calls.store++,
      "payment-chain": async () => {
        calls.chain++;
        throw new Error("connection refused");
      },
      facilitator: (signal) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    },
    draining: () => false,
    cacheMs: 1000,
    timeoutMs: 50,
    now: () => clock,
  });
  const [first, second] = await Promise.all([readiness.report(), readiness.report()]);
  assert.deepEqual(first, {
    status: "unready",
    checks: { store: "ok", "payment-chain": "connection refused", facilitator: "no answer within 50 ms" },
  });
  assert.deepEqual(second, first);
  clock = 999;
  await readiness.report();
  assert.deepEqual(calls, { store: 1, chain: 1 });
  clock = 1000;
  await readiness.report();
  assert.deepEqual(calls, { store: 2, chain: 2 });
});

test("the chain probe fails with the reason when the RPC does not answer", async () => {
  const failure = await chainProbe("http://127.0.0.1:9/")(AbortSignal.timeout(1000)).then(
    () => "ok",
    (e: Error) => e.message,
  );
  assert.notEqual(failure, "ok");
});
