import { test } from "node:test";
import assert from "node:assert/strict";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { storeContract } from "./store-contract.ts";

storeContract("memory store", async () => createMemoryStore());

test("memory store: keys deleted and written again many times, and thousands deleted once (swept as they pile up), among others: every key reads as the last write left it", async () => {
  const store = createMemoryStore();
  for (let i = 0; i < 3000; i++) await store.set(`kept:${i}`, { i });
  let claims = 0;
  for (let round = 0; round < 5000; round++) {
    const key = `hot:${round % 6}`;
    assert.equal(await store.get(key), undefined);
    if (await store.claim(key, { round })) claims++;
    assert.deepEqual(await store.get(key), { round });
    assert.equal(await store.deleteIf(key, { round }), true);
    assert.equal(await store.delete(key), false);
    // Keys written once and deleted pile up until they are swept.
    await store.set(`once:${round}`, round);
    assert.equal(await store.delete(`once:${round}`), true);
  }
  assert.equal(claims, 5000);
  assert.deepEqual(await store.keys("once:"), []);
  assert.equal(await store.get("once:4999"), undefined);
  await store.set("hot:0", "last");
  assert.equal(await store.get("hot:0"), "last");
  assert.deepEqual((await store.keys("hot:")).sort(), ["hot:0"]);
  assert.equal((await store.keys("kept:")).length, 3000);
  for (let i = 0; i < 3000; i += 499) assert.deepEqual(await store.get(`kept:${i}`), { i });
});
