import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "semicolons detected, values typed",
    input: { csv: "name;age;member\nAda;36;true\nAlan;41;false", dynamicTyping: true },
    expect: {
      rows: [
        { name: "Ada", age: 36, member: true },
        { name: "Alan", age: 41, member: false },
      ],
      fields: ["name", "age", "member"],
      delimiter: ";",
    },
  },
  {
    name: "text stays text without dynamicTyping",
    input: { csv: "id,ok\n007,true" },
    expect: { rows: [{ id: "007", ok: "true" }], fields: ["id", "ok"], delimiter: "," },
  },
  {
    name: "no header gives arrays",
    input: { csv: "a,b\n1,2", header: false },
    expect: {
      rows: [
        ["a", "b"],
        ["1", "2"],
      ],
      fields: [],
      delimiter: ",",
    },
  },
  {
    name: "tab named explicitly",
    input: { csv: "a\tb,c\n1\t2,3", delimiter: "tab" },
    expect: { rows: [{ a: "1", "b,c": "2,3" }], fields: ["a", "b,c"], delimiter: "\t" },
  },
  {
    name: "an explicit pipe",
    input: { csv: "a|b\n1|2", delimiter: "|" },
    expect: { rows: [{ a: "1", b: "2" }], fields: ["a", "b"], delimiter: "|" },
  },
  {
    name: "quoted delimiters, quotes and line breaks",
    input: { csv: 'a,b\n"x, y","say ""hi""\nbye"' },
    expect: { rows: [{ a: "x, y", b: 'say "hi"\nbye' }], fields: ["a", "b"], delimiter: "," },
  },
  {
    name: "a byte order mark and blank lines are dropped",
    input: { csv: "\uFEFFid\n1\n\n2\n" },
    expect: { rows: [{ id: "1" }, { id: "2" }], fields: ["id"], delimiter: "," },
  },
  {
    name: "empty cells become null with dynamicTyping",
    input: { csv: "a,b\n,2.5", dynamicTyping: true },
    expect: { rows: [{ a: null, b: 2.5 }], fields: ["a", "b"], delimiter: "," },
  },
];

for (const c of cases) {
  test(`csv2json: ${c.name}`, async () => {
    const data = dataOf(await service.call("csv2json", c.input));
    assert.deepEqual(data.rows, c.expect.rows);
    assert.deepEqual(data.fields, c.expect.fields);
    assert.equal(data.delimiter, c.expect.delimiter);
    assert.equal(data.rowCount, c.expect.rows.length);
    assert.equal(data.truncated, false);
    assert.deepEqual(data.errors, []);
  });
}

test("csv2json: maxRows truncates and says so", async () => {
  const data = dataOf(await service.call("csv2json", { csv: "n\n1\n2\n3", maxRows: 2 }));
  assert.deepEqual(data.rows, [{ n: "1" }, { n: "2" }]);
  assert.equal(data.rowCount, 2);
  assert.equal(data.truncated, true);
});

test("csv2json: exactly maxRows rows is not truncated", async () => {
  const data = dataOf(await service.call("csv2json", { csv: "n\n1\n2", maxRows: 2 }));
  assert.equal(data.rowCount, 2);
  assert.equal(data.truncated, false);
});

test("csv2json: duplicate headers are renamed and listed", async () => {
  const data = dataOf(await service.call("csv2json", { csv: "a,b,a\n1,2,3" }));
  assert.deepEqual(data.fields, ["a", "b", "a_1"]);
  assert.deepEqual(data.rows, [{ a: "1", b: "2", a_1: "3" }]);
  assert.deepEqual(data.renamedHeaders, { a_1: "a" });
});

test("csv2json: rows with the wrong number of fields are kept and reported", async () => {
  const data = dataOf(await service.call("csv2json", { csv: "a,b\n1,2,3\n4" }));
  assert.equal(data.rowCount, 2);
  assert.deepEqual(data.errors, [
    { row: 0, code: "TooManyFields", message: "Too many fields: expected 2 fields but parsed 3" },
    { row: 1, code: "TooFewFields", message: "Too few fields: expected 2 fields but parsed 1" },
  ]);
});

test("csv2json: an unterminated quote is reported", async () => {
  const data = dataOf(await service.call("csv2json", { csv: 'a\n"open' }));
  assert.deepEqual(
    data.errors.map((e: { code: string }) => e.code),
    ["MissingQuotes"],
  );
});

const bad = [
  { name: "missing csv", query: "", field: "csv" },
  { name: "a two-character delimiter", query: query({ csv: "a", delimiter: "ab" }), field: "delimiter" },
  { name: "a quote as delimiter", query: query({ csv: "a", delimiter: '"' }), field: "delimiter" },
  { name: "maxRows of 0", query: query({ csv: "a", maxRows: 0 }), field: "maxRows" },
  { name: "header that is not a boolean", query: query({ csv: "a", header: "yes" }), field: "header" },
  { name: "csv over 100,000 characters", query: query({ csv: "a".repeat(100_001) }), field: "csv" },
];
for (const c of bad) {
  test(`csv2json: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/csv2json?${c.query}`), c.field);
  });
}

test("csv2json: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/csv2json?${query({ csv: "a,b\n1,2" })}`));
});
