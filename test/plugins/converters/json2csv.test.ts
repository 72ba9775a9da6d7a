import { test } from "node:test";
import assert from "node:assert/strict";
import Papa from "papaparse";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "nested objects flattened, arrays as JSON, union of columns",
    input: { json: '[{"name":"Ada","address":{"city":"London"},"tags":["x","y"]},{"name":"Alan","score":-1}]' },
    csv: 'name,address.city,tags,score\r\nAda,London,"[""x"",""y""]",\r\nAlan,,,-1',
    columns: ["name", "address.city", "tags", "score"],
  },
  {
    name: "formula-looking text is defused, numbers are not",
    input: { json: '[{"a":"=1+1","b":"@x","c":-5,"d":"+1","e":"\\tx"}]' },
    csv: 'a,b,c,d,e\r\n"\'=1+1","\'@x",-5,"\'+1","\'\tx"',
    columns: ["a", "b", "c", "d", "e"],
  },
  {
    name: "escapeFormulae off writes text as is",
    input: { json: '[{"a":"=1+1"}]', escapeFormulae: false },
    csv: "a\r\n=1+1",
    columns: ["a"],
  },
  {
    name: "delimiters, quotes and line breaks are quoted",
    input: { json: '[{"a":"x,y","b":"q\\"uote","c":"l1\\nl2"}]' },
    csv: 'a,b,c\r\n"x,y","q""uote","l1\nl2"',
    columns: ["a", "b", "c"],
  },
  {
    name: "chosen columns in order, tab-separated, without header",
    input: { json: '[{"a":1,"b":2,"c":3}]', columns: ["c", "a", "missing"], delimiter: "tab", header: false },
    csv: "3\t1\t",
    columns: ["c", "a", "missing"],
  },
  {
    name: "a semicolon delimiter",
    input: { json: '[{"a":1,"b":"x;y"}]', delimiter: ";" },
    csv: 'a;b\r\n1;"x;y"',
    columns: ["a", "b"],
  },
  { name: "one object is one row", input: { json: '{"a":1,"b":null}' }, csv: "a,b\r\n1,", columns: ["a", "b"] },
  {
    name: "rows that are arrays use their indices",
    input: { json: "[[1,2],[3]]" },
    csv: "0,1\r\n1,2\r\n3,",
    columns: ["0", "1"],
  },
  {
    name: "scalar rows go in a value column",
    input: { json: '[1,"a",null,true]' },
    csv: "value\r\n1\r\na\r\n\r\ntrue",
    columns: ["value"],
  },
  {
    name: "an empty object is a cell, a filled one is flattened",
    input: { json: '[{"a":{}},{"a":{"b":1}}]' },
    csv: "a,a.b\r\n{},\r\n,1",
    columns: ["a", "a.b"],
  },
  {
    name: "__proto__ is an ordinary column",
    input: { json: '[{"__proto__":1,"n":{"__proto__":2}}]' },
    csv: "__proto__,n.__proto__\r\n1,2",
    columns: ["__proto__", "n.__proto__"],
  },
  { name: "an empty array", input: { json: "[]" }, csv: "", columns: [] },
];

for (const c of cases) {
  test(`json2csv: ${c.name}`, async () => {
    const data = dataOf(await service.call("json2csv", c.input));
    assert.equal(data.csv, c.csv);
    assert.deepEqual(data.columns, c.columns);
  });
}

test("json2csv: rowCount and a round trip through a CSV parser", async () => {
  const rows = [
    { id: 1, note: 'a, "b"\nc' },
    { id: 2, note: "plain" },
  ];
  const data = dataOf(await service.call("json2csv", { json: JSON.stringify(rows) }));
  assert.equal(data.rowCount, 2);
  assert.deepEqual(Papa.parse(data.csv, { header: true, dynamicTyping: true }).data, rows);
});

test("json2csv: a document that is not JSON is a 400 on json", async () => {
  expectHandler400(await service.call("json2csv", { json: "[{a:1}]" }), "json");
});

test("json2csv: more than 1,000 columns is a 400 on json", async () => {
  const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`c${i}`, i]));
  const issue = expectHandler400(await service.call("json2csv", { json: JSON.stringify([wide]) }), "json");
  assert.match(issue.message, /1001 columns/);
});

const bad = [
  { name: "missing json", query: "", field: "json" },
  { name: "a two-character delimiter", query: query({ json: "[]", delimiter: ";;" }), field: "delimiter" },
  {
    name: "more than 1,000 columns named",
    query: query({ json: "[]", columns: Array.from({ length: 1001 }, (_, i) => `c${i}`).join(",") }),
    field: "columns",
  },
  { name: "header that is not a boolean", query: query({ json: "[]", header: "top" }), field: "header" },
];
for (const c of bad) {
  test(`json2csv: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/json2csv?${c.query}`), c.field);
  });
}

test("json2csv: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/json2csv?${query({ json: '[{"a":1}]', columns: "a,b" })}`));
});
