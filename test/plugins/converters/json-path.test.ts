import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const store = JSON.stringify({
  store: {
    book: [
      { title: "Dune", price: 9 },
      { title: "Emma", price: 5 },
    ],
    bicycle: { price: 20 },
  },
});

const cases = [
  {
    name: "a wildcard over an array",
    input: { json: store, path: "$.store.book[*].title" },
    matches: [
      { path: "$['store']['book'][0]['title']", pointer: "/store/book/0/title", value: "Dune" },
      { path: "$['store']['book'][1]['title']", pointer: "/store/book/1/title", value: "Emma" },
    ],
  },
  {
    name: "recursive descent",
    input: { json: store, path: "$..price" },
    matches: [
      { path: "$['store']['book'][0]['price']", pointer: "/store/book/0/price", value: 9 },
      { path: "$['store']['book'][1]['price']", pointer: "/store/book/1/price", value: 5 },
      { path: "$['store']['bicycle']['price']", pointer: "/store/bicycle/price", value: 20 },
    ],
  },
  {
    name: "a slice from the end",
    input: { json: store, path: "$.store.book[-1:]" },
    matches: [{ path: "$['store']['book'][1]", pointer: "/store/book/1", value: { title: "Emma", price: 5 } }],
  },
  {
    name: "a union of names",
    input: { json: store, path: "$.store.book[0][title,price]" },
    matches: [
      { path: "$['store']['book'][0]['title']", pointer: "/store/book/0/title", value: "Dune" },
      { path: "$['store']['book'][0]['price']", pointer: "/store/book/0/price", value: 9 },
    ],
  },
  {
    name: "keys that need escaping in a JSON Pointer",
    input: { json: '{"a/b":{"c~d":1}}', path: "$['a/b']['c~d']" },
    matches: [{ path: "$['a/b']['c~d']", pointer: "/a~1b/c~0d", value: 1 }],
  },
  {
    name: "the whole document",
    input: { json: "[1,2]", path: "$" },
    matches: [{ path: "$", pointer: "", value: [1, 2] }],
  },
  { name: "no match", input: { json: store, path: "$.store.pen" }, matches: [] },
];

for (const c of cases) {
  test(`json-path: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("json-path", c.input)), {
      count: c.matches.length,
      matches: c.matches,
      truncated: false,
    });
  });
}

test("json-path: limit keeps the first matches and the full count", async () => {
  const data = dataOf(await service.call("json-path", { json: store, path: "$..price", limit: 1 }));
  assert.equal(data.count, 3);
  assert.equal(data.truncated, true);
  assert.deepEqual(
    data.matches.map((m: { value: unknown }) => m.value),
    [9],
  );
});

test("json-path: filter expressions are refused, nothing is evaluated", async () => {
  const issue = expectHandler400(
    await service.call("json-path", { json: store, path: "$.store.book[?(@.price < 6)]" }),
    "path",
  );
  assert.match(issue.message, /not supported/);
});

test("json-path: script expressions are refused", async () => {
  expectHandler400(await service.call("json-path", { json: store, path: "$.store.book[(@.length-1)]" }), "path");
});

test("json-path: a document that is not JSON is a 400 with its position", async () => {
  const issue = expectHandler400(await service.call("json-path", { json: '{"a":\n tru}', path: "$.a" }), "json");
  assert.deepEqual([issue.line, issue.column], [2, 2]);
});

const bad = [
  { name: "missing path", query: query({ json: store }), field: "path" },
  { name: "missing json", query: query({ path: "$" }), field: "json" },
  { name: "an empty path", query: query({ json: store, path: "" }), field: "path" },
  { name: "limit over 1000", query: query({ json: store, path: "$", limit: 1001 }), field: "limit" },
  { name: "json over 100,000 characters", query: query({ json: " ".repeat(100_001), path: "$" }), field: "json" },
];
for (const c of bad) {
  test(`json-path: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/json-path?${c.query}`), c.field);
  });
}

test("json-path: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/json-path?${query({ json: store, path: "$..price" })}`));
});
