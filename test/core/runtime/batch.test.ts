import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { upstreamFailed } from "../../../core/runtime/errors.ts";
import { createCredits } from "../../../core/payment/credits.ts";
import { settlingGate, startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";

const echo = defineEndpoint({
  name: "echo",
  method: "GET",
  price: "$0.02",
  summary: "Echoes n",
  input: v.object({ n: v.pipe(v.number(), v.integer(), v.maxValue(100)), tags: v.optional(v.array(v.string()), []) }),
  output: v.object({ n: v.number(), tags: v.array(v.string()) }),
  example: { input: { n: 1 }, output: { n: 1, tags: [] } },
  handler: ({ input }) => ({ n: input.n, tags: input.tags }),
});
const flaky = defineEndpoint({
  name: "flaky",
  method: "POST",
  price: "$0.03",
  summary: "Fails when asked",
  input: v.object({ fail: v.boolean() }),
  output: v.object({ ok: v.boolean() }),
  example: { input: { fail: false }, output: { ok: true } },
  handler: ({ input }) => {
    if (input.fail) throw upstreamFailed("somewhere", "somewhere is down");
    return { ok: true };
  },
});
const plugin = definePlugin({ family: "demo", endpoints: [echo, flaky] });
const service = await startTestService({ given: [plugin] });

const challengeAmount = async (calls: unknown, method: "GET" | "POST" = "GET") => {
  const res =
    method === "GET"
      ? await service.request(`/v1/batch?calls=${encodeURIComponent(JSON.stringify(calls))}`)
      : await service.request("/v1/batch", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ calls }),
        });
  assert.equal(res.status, 402, await res.clone().text());
  return JSON.parse(res.headers.get("x-payment-requirements")!).accepts[0].maxAmountRequired;
};

test("the price is the larger of $0.05 and the items' sum, quoted in the challenge, for GET and POST", async () => {
  assert.equal(await challengeAmount([{ path: "/v1/echo", params: { n: 1 } }]), "50000");
  const many = Array.from({ length: 4 }, (_, i) => ({ path: "/v1/flaky", params: { fail: i === 0 } }));
  assert.equal(await challengeAmount(many), "120000");
  assert.equal(await challengeAmount(many, "POST"), "120000");
});

test("every item is checked before payment: unknown route, nested batch, bad params, too many calls", async () => {
  const issues = async (calls: unknown) => {
    const res = await service.request(`/v1/batch?calls=${encodeURIComponent(JSON.stringify(calls))}`);
    assert.equal(res.status, 400);
    return (await res.json()).error.details.issues.map((i: any) => i.field);
  };
  assert.deepEqual(await issues([{ path: "/v1/echo", params: { n: 1 } }, { path: "/v1/nowhere" }]), ["calls.1.path"]);
  assert.deepEqual(await issues([{ path: "/v1/batch", params: { calls: [] } }]), ["calls.0.path"]);
  assert.deepEqual(await issues([{ path: "/v1/echo", params: { n: 1000 } }]), ["calls.0.params.n"]);
  assert.deepEqual(await issues(Array.from({ length: 11 }, () => ({ path: "/v1/echo", params: { n: 1 } }))), ["calls"]);
});

test("items run with their own status, body and latency; GET params read like a query string", async () => {
  const out = await service.call("batch", {
    calls: [
      { path: "/v1/echo", params: { n: "7", tags: ["a", "b"] } },
      { path: "/v1/flaky", params: { fail: false } },
    ],
  });
  assert.equal(out.status, 200);
  const data = dataOf(out);
  assert.deepEqual(
    data.results.map((r: any) => [r.path, r.status]),
    [
      ["/v1/echo", 200],
      ["/v1/flaky", 200],
    ],
  );
  assert.deepEqual(data.results[0].body.data, { n: 7, tags: ["a", "b"] });
  assert.equal(typeof data.results[0].ms, "number");
  assert.deepEqual([data.succeeded, data.failed, data.credit], [2, 0, null]);
});

test("failed items are credited with their prices; a batch whose items all fail answers 502", async () => {
  const out = await service.call("batch", {
    calls: [
      { path: "/v1/echo", params: { n: 1 } },
      { path: "/v1/flaky", params: { fail: true } },
      { path: "/v1/flaky", params: { fail: true } },
    ],
  });
  assert.equal(out.status, 200);
  const data = dataOf(out);
  assert.deepEqual(
    data.results.map((r: any) => r.status),
    [200, 502, 502],
  );
  assert.equal(data.results[1].body.error.code, "upstream_error");
  assert.equal(data.credit.amount, "60000");
  assert.equal(await createCredits(service.runtime.store).balance(data.credit.code), 60_000n);

  const allFailed = await service.call("batch", { calls: [{ path: "/v1/flaky", params: { fail: true } }] });
  assert.equal(allFailed.status, 502);
  assert.equal(errorOf(allFailed).code, "batch_failed");
});

const mixedBatch = {
  calls: [
    { path: "/v1/echo", params: { n: 1 } },
    { path: "/v1/flaky", params: { fail: true } },
  ],
};
const postBatch = (s: Awaited<ReturnType<typeof startTestService>>) =>
  s.request("/v1/batch", {
    method: "POST",
    headers: { "content-type": "application/json", "x-credit-code": "test" },
    body: JSON.stringify(mixedBatch),
  });

test("a paid batch's credit code is made after its settlement, and none when the settlement fails", async () => {
  const settled = await startTestService({ given: [plugin], payments: settlingGate() });
  const res = await postBatch(settled);
  assert.equal(res.status, 200);
  const { credit } = (await res.json()).data;
  assert.equal(await createCredits(settled.runtime.store).balance(credit.code), 30_000n);

  const failed = await startTestService({ given: [plugin], payments: settlingGate({ settles: false }) });
  assert.equal((await postBatch(failed)).status, 402);
  assert.deepEqual(await failed.runtime.store.keys("credit"), [], "no code, funded or empty");
  await Promise.all([settled.close(), failed.close()]);
});
