import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const jsonCases = [
  {
    name: "an added element and a changed value",
    a: { name: "Ada", tags: ["x"], age: 36 },
    b: { name: "Ada", tags: ["x", "y"], age: 37 },
    expect: {
      equal: false,
      similarity: 0.5,
      added: [{ path: "/tags/1", value: "y" }],
      removed: [],
      changed: [{ path: "/age", from: 36, to: 37 }],
      counts: { added: 1, removed: 0, changed: 1 },
    },
  },
  {
    name: "key order does not matter",
    a: { a: 1, b: { c: [1, 2] } },
    b: { b: { c: [1, 2] }, a: 1 },
    expect: {
      equal: true,
      similarity: 1,
      added: [],
      removed: [],
      changed: [],
      counts: { added: 0, removed: 0, changed: 0 },
    },
  },
  {
    name: "a removed subtree counts all its leaves",
    a: { keep: 1, gone: { x: 1, y: [2, 3] } },
    b: { keep: 1 },
    expect: {
      equal: false,
      similarity: 0.25,
      added: [],
      removed: [{ path: "/gone", value: { x: 1, y: [2, 3] } }],
      changed: [],
      counts: { added: 0, removed: 1, changed: 0 },
    },
  },
  {
    name: "a change of kind is one change",
    a: { v: { x: 1 }, n: 1 },
    b: { v: [1], n: "1" },
    expect: {
      equal: false,
      similarity: 0,
      added: [],
      removed: [],
      changed: [
        { path: "/v", from: { x: 1 }, to: [1] },
        { path: "/n", from: 1, to: "1" },
      ],
      counts: { added: 0, removed: 0, changed: 2 },
    },
  },
  {
    name: "different scalars at the root",
    a: 1,
    b: null,
    expect: {
      equal: false,
      similarity: 0,
      added: [],
      removed: [],
      changed: [{ path: "", from: 1, to: null }],
      counts: { added: 0, removed: 0, changed: 1 },
    },
  },
  {
    name: "keys escaped in pointers",
    a: { "a/b": { "~": 1 } },
    b: { "a/b": { "~": 2 } },
    expect: {
      equal: false,
      similarity: 0,
      added: [],
      removed: [],
      changed: [{ path: "/a~1b/~0", from: 1, to: 2 }],
      counts: { added: 0, removed: 0, changed: 1 },
    },
  },
  {
    name: "empty containers are equal leaves",
    a: { list: [], map: {} },
    b: { list: [], map: {} },
    expect: {
      equal: true,
      similarity: 1,
      added: [],
      removed: [],
      changed: [],
      counts: { added: 0, removed: 0, changed: 0 },
    },
  },
];

for (const c of jsonCases) {
  test(`compare: json, ${c.name}`, async () => {
    const data = dataOf(await service.call("compare", { a: JSON.stringify(c.a), b: JSON.stringify(c.b) }));
    assert.deepEqual(data, { mode: "json", ...c.expect });
  });
}

test("compare: limit shortens the lists, not the counts", async () => {
  const data = dataOf(await service.call("compare", { a: "[]", b: "[1,2,3]", limit: 2 }));
  assert.deepEqual(data.added, [
    { path: "/0", value: 1 },
    { path: "/1", value: 2 },
  ]);
  assert.deepEqual(data.counts, { added: 3, removed: 0, changed: 0 });
});

test("compare: text, lines added and removed with their numbers", async () => {
  const data = dataOf(
    await service.call("compare", { a: "one\ntwo\nthree\n", b: "one\n2\nthree\nfour\n", mode: "text" }),
  );
  assert.deepEqual(data, {
    mode: "text",
    equal: false,
    // 2 x 11 shared characters ("one\n" and "\nthree\n") over 14 + 17
    similarity: 0.7097,
    added: [
      { line: 2, text: "2" },
      { line: 4, text: "four" },
    ],
    removed: [{ line: 2, text: "two" }],
    counts: { added: 2, removed: 1 },
  });
});

test("compare: a removed blank line", async () => {
  const data = dataOf(await service.call("compare", { a: "a\n\nb", b: "a\nb", mode: "text" }));
  assert.deepEqual(data.removed, [{ line: 2, text: "" }]);
  assert.deepEqual(data.added, []);
  assert.equal(data.similarity, 0.8571); // 2 x 3 shared of 4 + 3
});

test("compare: equal texts", async () => {
  assert.deepEqual(dataOf(await service.call("compare", { a: "same", b: "same", mode: "text" })), {
    mode: "text",
    equal: true,
    similarity: 1,
    added: [],
    removed: [],
    counts: { added: 0, removed: 0 },
  });
});

test("compare: two empty texts are equal", async () => {
  const data = dataOf(await service.call("compare", { a: "", b: "", mode: "text" }));
  assert.equal(data.equal, true);
  assert.equal(data.similarity, 1);
});

test("compare: long unrelated texts fall back to line similarity", async () => {
  const a = Array.from({ length: 3000 }, (_, i) => `alpha ${i}`).join("\n");
  const b = Array.from({ length: 3000 }, (_, i) => `omega ${i}`).join("\n");
  const data = dataOf(await service.call("compare", { a, b, mode: "text", limit: 1 }));
  assert.equal(data.similarity, 0);
  assert.deepEqual(data.counts, { added: 3000, removed: 3000 });
  assert.deepEqual(data.removed, [{ line: 1, text: "alpha 0" }]);
});

test("compare: long texts far apart are matched ignoring line order", async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
  const a = lines.join("\n");
  const b = [...lines].reverse().slice(1).concat("new line").join("\n");
  const data = dataOf(await service.call("compare", { a, b, mode: "text" }));
  assert.equal(data.equal, false);
  assert.deepEqual(data.counts, { added: 1, removed: 1 });
  assert.deepEqual(data.removed, [{ line: 3000, text: "line 2999" }]);
  assert.deepEqual(data.added, [{ line: 3000, text: "new line" }]);
  assert.ok(data.similarity > 0.99 && data.similarity < 1, String(data.similarity));
});

test("compare: text mode takes any text, JSON or not", async () => {
  const data = dataOf(await service.call("compare", { a: "{", b: "{ ", mode: "text" }));
  assert.equal(data.equal, false);
  assert.equal(data.similarity, 0.6667);
});

test("compare: a that is not JSON is a 400 on a", async () => {
  const issue = expectHandler400(await service.call("compare", { a: "{", b: "{}" }), "a");
  assert.equal(issue.message, "Unexpected end of input");
});

test("compare: b that is not JSON is a 400 on b", async () => {
  expectHandler400(await service.call("compare", { a: "{}", b: "[1 2]" }), "b");
});

const bad = [
  { name: "missing b", query: query({ a: "1" }), field: "b" },
  { name: "an unknown mode", query: query({ a: "1", b: "2", mode: "yaml" }), field: "mode" },
  { name: "limit of 0", query: query({ a: "1", b: "2", limit: 0 }), field: "limit" },
  { name: "a over 100,000 characters", query: query({ a: "1".repeat(100_001), b: "1" }), field: "a" },
];
for (const c of bad) {
  test(`compare: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/compare?${c.query}`), c.field);
  });
}

test("compare: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/compare?${query({ a: "1", b: "2" })}`));
});
