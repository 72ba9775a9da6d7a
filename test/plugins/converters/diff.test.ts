import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import diffEndpoint from "../../../plugins/converters/diff.ts";

const service = await startTestService({ plugins: ["converters"] });

async function diff(input: InputOf<typeof diffEndpoint>) {
  const out = await service.call(diffEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}
const summary = (changes: { type: string; value: string }[]) => changes.map((c) => `${c.type[0]}:${c.value}`);

const cases = [
  {
    name: "lines by default",
    input: { a: "one\ntwo\nthree\n", b: "one\n2\nthree\n" },
    changes: ["u:one\n", "r:two\n", "a:2\n", "u:three\n"],
    stats: { added: 1, removed: 1, unchanged: 2 },
  },
  {
    name: "words",
    input: { a: "the quick brown fox", b: "the slow brown dog", mode: "words" },
    changes: ["u:the ", "r:quick", "a:slow", "u: brown ", "r:fox", "a:dog"],
    stats: { added: 2, removed: 2, unchanged: 2 },
  },
  {
    name: "chars",
    input: { a: "kitten", b: "sitting", mode: "chars" },
    changes: ["r:k", "a:s", "u:itt", "r:e", "a:i", "u:n", "a:g"],
    stats: { added: 3, removed: 2, unchanged: 4 },
  },
  {
    name: "chars ignoring case",
    input: { a: "Hello", b: "hello", mode: "chars", ignoreCase: true },
    changes: ["u:hello"],
    stats: { added: 0, removed: 0, unchanged: 5 },
  },
  {
    name: "lines ignoring surrounding whitespace",
    input: { a: "a\n  b\n", b: "a\nb  \n", ignoreWhitespace: true },
    changes: ["u:a\nb  \n"],
    stats: { added: 0, removed: 0, unchanged: 2 },
  },
];
for (const c of cases) {
  test(`diff: ${c.name}`, async () => {
    const data = await diff(c.input as InputOf<typeof diffEndpoint>);
    assert.deepEqual(summary(data.changes), c.changes);
    assert.deepEqual(data.stats, c.stats);
    assert.equal(data.identical, c.stats.added + c.stats.removed === 0);
  });
}

test("diff: the unified patch uses the names and context asked for", async () => {
  const a = "1\n2\n3\n4\n5\n6\n7\n";
  const b = "1\n2\n3\nfour\n5\n6\n7\n";
  const data = await diff({ a, b, context: 1, aName: "old.txt", bName: "new.txt" });
  assert.equal(
    data.patch,
    "===================================================================\n--- old.txt\n+++ new.txt\n@@ -3,3 +3,3 @@\n 3\n-4\n+four\n 5\n",
  );
});

test("diff: identical texts give an empty patch body", async () => {
  const data = await diff({ a: "same\n", b: "same\n" });
  assert.equal(data.identical, true);
  assert.equal(data.patch, "===================================================================\n--- a\n+++ b\n");
});

test("diff: texts too different to compare in time are a 400 on b", async () => {
  const random = () => Array.from({ length: 60_000 }, () => "abcdefghij"[Math.floor(Math.random() * 10)]).join("");
  const out = await service.call(diffEndpoint, { a: random(), b: random(), mode: "chars" });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "b");
});

const bad = [
  { name: "missing b", query: "a=x", field: "b" },
  { name: "unknown mode", query: "a=x&b=y&mode=json", field: "mode" },
  { name: "context over 100", query: "a=x&b=y&context=101", field: "context" },
  { name: "a file name with a line break", query: "a=x&b=y&aName=a%0Ab", field: "aName" },
];
for (const c of bad) {
  test(`diff: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/diff?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("diff: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/diff?a=x&b=y");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
