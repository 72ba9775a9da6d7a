import { test } from "node:test";
import assert from "node:assert/strict";
import type { Store } from "../../../core/endpoint.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The behaviour every Store gives, run against the memory store and the Redis store alike. `fresh` gives a
 * store with nothing in it; keys are also unique per case so a shared server cannot leak between cases.
 */
export function storeContract(label: string, fresh: () => Promise<Store>, options: { skip?: string } = {}) {
  const it = (name: string, body: (store: Store) => Promise<void>) =>
    test(`${label}: ${name}`, { skip: options.skip }, async () => body(await fresh()));

  it("get returns what set stored, as JSON values; delete says whether a key was there", async (store) => {
    const value = { a: 1, list: ["x", 2.5, null, true], nested: { s: ":colon" } };
    await store.set("v:obj", value);
    assert.deepEqual(await store.get("v:obj"), value);
    await store.set("v:str", "plain");
    assert.equal(await store.get("v:str"), "plain");
    await store.set("v:num", 42);
    assert.equal(await store.get("v:num"), 42);
    assert.equal(await store.get("v:absent"), undefined);
    assert.equal(await store.delete("v:obj"), true);
    assert.equal(await store.delete("v:obj"), false);
    assert.equal(await store.get("v:obj"), undefined);
  });

  it("a value set with a TTL is gone after it", async (store) => {
    // Long enough that a busy machine reads it back before it expires.
    await store.set("ttl:short", "soon gone", 1_500);
    await store.set("ttl:long", "stays", 60_000);
    assert.equal(await store.get("ttl:short"), "soon gone");
    await sleep(1_600);
    assert.equal(await store.get("ttl:short"), undefined);
    assert.equal(await store.get("ttl:long"), "stays");
  });

  it("claim: exactly one of many concurrent claims wins, and the winner's value is stored", async (store) => {
    const wins = await Promise.all(Array.from({ length: 25 }, (_, i) => store.claim("claim:one", { by: i }, 60_000)));
    assert.equal(wins.filter(Boolean).length, 1);
    const winner = wins.indexOf(true);
    assert.deepEqual(await store.get("claim:one"), { by: winner });
    assert.equal(await store.claim("claim:one", { by: 99 }), false);
  });

  it("claim: a claim with a TTL can be taken again once it expires", async (store) => {
    // Long enough that the second claim surely comes before it ends, even on a busy machine; then polled until free.
    assert.equal(await store.claim("claim:ttl", "first", 2000), true);
    assert.equal(await store.claim("claim:ttl", "second", 2000), false);
    const deadline = Date.now() + 30_000;
    while (!(await store.claim("claim:ttl", "third", 60_000)) && Date.now() < deadline) await sleep(50);
    assert.equal(await store.get("claim:ttl"), "third");
  });

  it("deleteIf: deletes only while the key holds the value; of many at once, one deletes", async (store) => {
    assert.equal(await store.claim("owned:a", { owner: "one" }, 60_000), true);
    assert.equal(await store.deleteIf("owned:a", { owner: "two" }), false);
    assert.deepEqual(await store.get("owned:a"), { owner: "one" });
    const deleted = await Promise.all(Array.from({ length: 10 }, () => store.deleteIf("owned:a", { owner: "one" })));
    assert.equal(deleted.filter(Boolean).length, 1);
    assert.equal(await store.get("owned:a"), undefined);
    assert.equal(await store.deleteIf("owned:absent", "x"), false);
  });

  it("deleteIf: an expired claim taken by another owner is not deleted by the first", async (store) => {
    assert.equal(await store.claim("owned:lock", "first", 60), true);
    await sleep(120);
    assert.equal(await store.claim("owned:lock", "second", 60_000), true);
    assert.equal(await store.deleteIf("owned:lock", "first"), false);
    assert.equal(await store.get("owned:lock"), "second");
  });

  it("renewIf: extends the TTL only while the key holds the value", async (store) => {
    assert.equal(await store.claim("owned:renew", "me", 100), true);
    assert.equal(await store.renewIf("owned:renew", "someone else", 60_000), false);
    assert.equal(await store.renewIf("owned:renew", "me", 60_000), true);
    await sleep(150);
    assert.equal(await store.get("owned:renew"), "me", "renewed past its first TTL");
    assert.equal(await store.renewIf("owned:absent", "me", 60_000), false);
    assert.equal(await store.get("owned:absent"), undefined);
  });

  it("increment: concurrent increments all count, the value reads back as a number", async (store) => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.increment("inc:n")));
    assert.deepEqual(
      [...results].sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    assert.equal(await store.get("inc:n"), 50);
    assert.equal(await store.increment("inc:n", -20), 30);
    assert.equal(await store.increment("inc:by", 1_000_000), 1_000_000);
  });

  it("increment: the TTL is set when the key is created, not extended later", async (store) => {
    // Margins of a second and more either side, so a stall of the busy test machine cannot decide the outcome.
    assert.equal(await store.increment("inc:ttl", 1, 3_000), 1);
    await sleep(1_500);
    assert.equal(await store.increment("inc:ttl", 1, 3_000), 2);
    await sleep(2_000);
    assert.equal(await store.get("inc:ttl"), undefined);
    assert.equal(await store.increment("inc:ttl", 5, 3_000), 5);
  });

  it("take: subtracts only what the value covers, however many take at once", async (store) => {
    await store.increment("take:n", 10);
    const results = await Promise.all(Array.from({ length: 8 }, () => store.take("take:n", 3)));
    assert.equal(results.filter((r) => r !== undefined).length, 3);
    assert.deepEqual(results.filter((r) => r !== undefined).sort(), [1, 4, 7]);
    assert.equal(await store.get("take:n"), 1);
    assert.equal(await store.take("take:n", 2), undefined);
    assert.equal(await store.take("take:n", 1), 0);
    assert.equal(await store.take("take:absent", 1), undefined);
    assert.equal(await store.get("take:absent"), undefined);
  });

  it("rank and top: scores add up; highest first, ties by member, also at the cut", async (store) => {
    assert.equal(await store.rank("board", "carol", 5), 5);
    assert.equal(await store.rank("board", "carol", 2.5), 7.5);
    await store.rank("board", "bob", 3);
    await store.rank("board", "alice", 3);
    await store.rank("board", "dave", 3);
    await store.rank("board", "erin", 1);
    await Promise.all(Array.from({ length: 20 }, () => store.rank("board", "erin", 1)));
    assert.deepEqual(await store.top("board", 3), [
      { member: "erin", score: 21 },
      { member: "carol", score: 7.5 },
      { member: "alice", score: 3 },
    ]);
    assert.deepEqual(
      (await store.top("board", 10)).map((e) => e.member),
      ["erin", "carol", "alice", "bob", "dave"],
    );
    assert.deepEqual(await store.top("board", 0), []);
    assert.deepEqual(await store.top("empty-board", 5), []);
  });

  it("keys: the live keys under a prefix, taken literally", async (store) => {
    await store.set("pfx:a", 1);
    await store.set("pfx:b", 2);
    await store.set("pfx:gone", 3, 50);
    await store.increment("pfx:count");
    await store.set("pfxother", 4);
    await store.set("glob*:x", 5);
    await store.set("globby:x", 6);
    await store.rank("pfx:board", "m", 1);
    await sleep(100);
    assert.deepEqual((await store.keys("pfx:")).sort(), ["pfx:a", "pfx:b", "pfx:count"]);
    assert.deepEqual(await store.keys("glob*:"), ["glob*:x"]);
    assert.deepEqual(await store.keys("nothing:"), []);
  });
}
