// test: own-process: heavy: a sweep that runs beside the others
import assert from "node:assert/strict";
import { test } from "node:test";
import { fromExamples, paidOperations, service } from "./_indexers.ts";

// A generic probe that builds its calls from the document alone reaches the 402 on every paid operation.
test("a probe built only from the OpenAPI examples reaches the 402 on every paid operation", async () => {
  const missed: string[] = [];
  for (const operation of paidOperations) {
    const { url, init } = fromExamples(operation);
    const res = await service.request(url, init);
    if (res.status !== 402)
      missed.push(`${operation.method} ${url.slice(0, 80)}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
  assert.ok(paidOperations.length > 200);
  assert.deepEqual(missed, [], `${missed.length} of ${paidOperations.length} missed`);
});

test("a probe filling every documented example, schemas' included, reaches the 402 on every paid operation", async () => {
  const missed: string[] = [];
  for (const operation of paidOperations) {
    const { url, init } = fromExamples(operation, { every: true });
    const res = await service.request(url, init);
    if (res.status !== 402)
      missed.push(`${operation.method} ${url.slice(0, 80)}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
  assert.ok(paidOperations.length > 200);
  assert.deepEqual(missed, [], `${missed.length} of ${paidOperations.length} missed`);
});
