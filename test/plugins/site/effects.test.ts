import { test } from "node:test";
import assert from "node:assert/strict";
import { importFamily } from "../../../core/runtime/load.ts";
import { startTestService } from "../../helpers/service.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { effectsTwice, failingOnce } from "../_effects.ts";

const site = await importFamily("site");

const token = "operator-secret-for-tests";
const env = { REVIEWS_OPERATOR_TOKEN: token };

test("reviews: submit, approve and reject run a second time (a retry) hold, list and drop each review once", async (t) => {
  const twice = effectsTwice(site);
  const service = await startTestService({
    plugins: ["site"],
    given: [twice],
    now: () => new Date("2026-05-04T10:00:00Z"),
    env,
  });
  t.after(() => service.close());
  const post = async (path: string, body: unknown) =>
    (
      await service.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      })
    ).json();
  const kept = (await post("/site/api/reviews", { rating: 5, text: "kept" })).data;
  const dropped = (await post("/site/api/reviews", { rating: 1, text: "dropped" })).data;
  assert.equal((await service.runtime.store.keys("site:reviews:pending:")).length, 2);

  assert.equal((await post("/site/api/reviews/approve", { id: kept.id })).data.status, "approved");
  assert.equal((await post("/site/api/reviews/reject", { id: dropped.id })).data.status, "rejected");
  assert.deepEqual(twice.failed, []);
  assert.deepEqual(await service.runtime.store.keys("site:reviews:pending:"), []);
  assert.deepEqual(await service.runtime.store.top("site:reviews:approved-by-date", 5), [
    { member: kept.id, score: Date.parse("2026-05-04T10:00:00Z") },
  ]);
});

test("reviews: an approval whose listing fails is run again and lists the review once", async (t) => {
  const store = failingOnce(createMemoryStore(), "rank");
  const service = await startTestService({
    plugins: ["site"],
    store,
    now: () => new Date("2026-05-04T10:00:00Z"),
    env,
  });
  t.after(() => service.close());
  const post = async (path: string, body: unknown) =>
    (
      await service.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      })
    ).json();
  const { id } = (await post("/site/api/reviews", { rating: 4, text: "listed once" })).data;
  assert.equal((await post("/site/api/reviews/approve", { id })).data.status, "approved");
  assert.equal(store.failed(), true, "the first listing failed");
  assert.deepEqual(await store.top("site:reviews:approved-by-date", 5), [
    { member: id, score: Date.parse("2026-05-04T10:00:00Z") },
  ]);
  assert.deepEqual(await store.keys("site:reviews:pending:"), []);
});
