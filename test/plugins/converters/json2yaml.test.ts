import { test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "yaml";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "key order kept, nested blocks",
    input: { json: '{"name":"app","debug":false,"ports":[80,443],"db":{"host":"localhost"}}' },
    yaml: "name: app\ndebug: false\nports:\n  - 80\n  - 443\ndb:\n  host: localhost\n",
  },
  {
    name: "sorted keys and a wider indent",
    input: { json: '{"b":1,"a":{"d":1,"c":[{"z":1,"y":2}]}}', indent: 4, sortKeys: true },
    yaml: 'a:\n    c:\n        - "y": 2\n          z: 1\n    d: 1\nb: 1\n',
  },
  { name: "an empty object", input: { json: "{}" }, yaml: "{}\n" },
  { name: "an empty array", input: { json: "[]" }, yaml: "[]\n" },
  { name: "a string document", input: { json: '"x"' }, yaml: "x\n" },
  { name: "multi-line text as a block", input: { json: '{"s":"l1\\nl2"}' }, yaml: "s: |-\n  l1\n  l2\n" },
  {
    name: "scalars of every kind",
    input: { json: '{"e":"","n":null,"t":true,"f":1.5,"big":1e21,"k: v":"a: b","#":"# x"}' },
    yaml: 'e: ""\n"n": null\nt: true\nf: 1.5\nbig: 1e+21\n"k: v": "a: b"\n"#": "# x"\n',
  },
];

for (const c of cases) {
  test(`json2yaml: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("json2yaml", c.input)), { yaml: c.yaml });
  });
}

test("json2yaml: strings YAML 1.1 or 1.2 readers would misread stay strings in both", async () => {
  const tricky = {
    a: "no",
    b: "on",
    c: "yes",
    d: "Y",
    e: "0o10",
    f: "010",
    g: "1e3",
    h: "2001-12-14",
    i: "null",
    j: "~",
    k: "1_000",
    l: "0x1F",
    m: ".inf",
    n: "1:20",
  };
  const { yaml } = dataOf(await service.call("json2yaml", { json: JSON.stringify(tricky) }));
  assert.deepEqual(parse(yaml, { version: "1.2" }), tricky);
  assert.deepEqual(parse(yaml, { version: "1.1" }), tricky);
});

test("json2yaml: long strings are not folded", async () => {
  const long = "word ".repeat(40).trim();
  const { yaml } = dataOf(await service.call("json2yaml", { json: JSON.stringify({ long }) }));
  assert.equal(yaml, `long: ${long}\n`);
});

test("json2yaml: a document that is not JSON is a 400 on json", async () => {
  const issue = expectHandler400(await service.call("json2yaml", { json: "{\n  a: 1\n}" }), "json");
  assert.deepEqual([issue.line, issue.column], [2, 3]);
});

const bad = [
  { name: "missing json", query: "", field: "json" },
  { name: "indent over 8", query: query({ json: "{}", indent: 9 }), field: "indent" },
  { name: "sortKeys that is not a boolean", query: query({ json: "{}", sortKeys: "abc" }), field: "sortKeys" },
];
for (const c of bad) {
  test(`json2yaml: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/json2yaml?${c.query}`), c.field);
  });
}

test("json2yaml: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/json2yaml?${query({ json: '{"a":1}' })}`));
});
