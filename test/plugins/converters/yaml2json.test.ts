import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "merge keys and flow sequences",
    yaml: "defaults: &defaults\n  retries: 3\nservice:\n  <<: *defaults\n  name: api\n  ports: [80, 443]\n",
    expect: {
      json: { defaults: { retries: 3 }, service: { retries: 3, name: "api", ports: [80, 443] } },
      documents: 1,
      warnings: [],
    },
  },
  {
    name: "several documents",
    yaml: "---\na: 1\n---\nb: 2\n",
    expect: { json: [{ a: 1 }, { b: 2 }], documents: 2, warnings: [] },
  },
  { name: "one document that is an array", yaml: "- 1\n- 2\n", expect: { json: [1, 2], documents: 1, warnings: [] } },
  { name: "an empty stream", yaml: "", expect: { json: null, documents: 0, warnings: [] } },
  { name: "only a comment", yaml: "# nothing\n", expect: { json: null, documents: 0, warnings: [] } },
  {
    name: "YAML 1.2 scalars: no yes/on booleans, 0o octal, dates stay text",
    yaml: "on: yes\nn: 010\no: 0o10\nx: 0x1F\nd: 2001-12-14\nnul: ~\nt: True\n",
    expect: {
      json: { on: "yes", n: 10, o: 8, x: 31, d: "2001-12-14", nul: null, t: true },
      documents: 1,
      warnings: [],
    },
  },
  {
    name: "infinity and NaN become null",
    yaml: "f: .inf\ng: -.inf\nh: .nan\n",
    expect: { json: { f: null, g: null, h: null }, documents: 1, warnings: [] },
  },
  {
    name: "binary as base64, explicit timestamps as ISO",
    yaml: "- !!binary aGk=\n- !!timestamp 2001-12-14\n",
    expect: { json: ["aGk=", "2001-12-14T00:00:00.000Z"], documents: 1, warnings: [] },
  },
  {
    name: "a collection as key",
    yaml: "? [1, 2]\n: pair\n",
    expect: { json: { "[ 1, 2 ]": "pair" }, documents: 1, warnings: [] },
  },
  {
    name: "an unknown tag is ignored with a warning",
    yaml: "t: !foo bar\n",
    expect: { json: { t: "bar" }, documents: 1, warnings: ["Unresolved tag: !foo at line 1, column 4"] },
  },
];

for (const c of cases) {
  test(`yaml2json: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("yaml2json", { yaml: c.yaml })), c.expect);
  });
}

const refused = [
  {
    name: "a billion-laughs alias bomb",
    yaml: [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      ..."bcdef".split("").map((k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcdef"[i]}`).join(", ")}]`),
    ].join("\n"),
    message: /resource exhaustion/,
  },
  { name: "an alias inside its own anchor", yaml: "a: &x\n  b: *x\n", message: /cycle/ },
  { name: "nesting deeper than 100 levels", yaml: "[".repeat(50_000) + "]".repeat(50_000), message: /deeper than 100/ },
  { name: "block nesting deeper than 100 levels", yaml: `${"- ".repeat(101)}x`, message: /deeper than 100/ },
];
for (const c of refused) {
  test(`yaml2json: ${c.name} is a 400 on yaml`, async () => {
    assert.match(expectHandler400(await service.call("yaml2json", { yaml: c.yaml }), "yaml").message, c.message);
  });
}

test("yaml2json: deep nesting twice in one process does not crash it", async () => {
  for (let i = 0; i < 2; i++)
    expectHandler400(await service.call("yaml2json", { yaml: "[".repeat(50_000) + "]".repeat(50_000) }), "yaml");
  assert.deepEqual(dataOf(await service.call("yaml2json", { yaml: "a: 1" })).json, { a: 1 });
});

test("yaml2json: 100 levels of nesting are fine", async () => {
  const data = dataOf(await service.call("yaml2json", { yaml: `${"- ".repeat(100)}x` }));
  let depth = 0;
  for (let node = data.json; Array.isArray(node); node = node[0]) depth++;
  assert.equal(depth, 100);
});

const errors = [
  { name: "duplicate keys", yaml: "a: 1\na: 2\n", message: "Map keys must be unique", at: [2, 1] },
  {
    name: "an unclosed flow sequence",
    yaml: "a: [1\n",
    message: "Flow sequence in block collection must be sufficiently indented and end with a ]",
    at: [2, 1],
  },
  { name: "a tab used for indentation", yaml: "a:\n\tb: 1\n", message: /tab/i, at: [2, 1] },
];
for (const c of errors) {
  test(`yaml2json: ${c.name} is a 400 with its position`, async () => {
    const issue = expectHandler400(await service.call("yaml2json", { yaml: c.yaml }), "yaml");
    if (typeof c.message === "string") assert.equal(issue.message, c.message);
    else assert.match(issue.message, c.message);
    assert.deepEqual([issue.line, issue.column], c.at);
  });
}

const bad = [
  { name: "missing yaml", query: "", field: "yaml" },
  { name: "yaml over 100,000 characters", query: query({ yaml: "a".repeat(100_001) }), field: "yaml" },
];
for (const c of bad) {
  test(`yaml2json: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/yaml2json?${c.query}`), c.field);
  });
}

test("yaml2json: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/yaml2json?${query({ yaml: "a: 1" })}`));
});
