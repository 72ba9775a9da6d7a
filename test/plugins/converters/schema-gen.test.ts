import { test } from "node:test";
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });
const $schema = "https://json-schema.org/draft/2020-12/schema";

const cases = [
  { name: "a scalar", input: { json: "3.5" }, schema: { $schema, type: "number" } },
  { name: "null", input: { json: "null" }, schema: { $schema, type: "null" } },
  { name: "an empty array has no items", input: { json: "[]" }, schema: { $schema, type: "array" } },
  { name: "an empty object", input: { json: "{}" }, schema: { $schema, type: "object", properties: {} } },
  {
    name: "array elements of several kinds",
    input: { json: '[1, "a", null, 2]' },
    schema: { $schema, type: "array", items: { type: ["string", "integer", "null"] } },
  },
  {
    name: "integers and decimals merge to number",
    input: { json: "[1, 2.5]" },
    schema: { $schema, type: "array", items: { type: "number" } },
  },
  {
    name: "objects in an array: required only when always present",
    input: { json: '[{"a":1,"b":"x"},{"a":2,"c":true}]' },
    schema: {
      $schema,
      type: "array",
      items: {
        type: "object",
        properties: { a: { type: "integer" }, b: { type: "string" }, c: { type: "boolean" } },
        required: ["a"],
      },
    },
  },
  {
    name: "samples merged into one schema",
    input: { json: '[{"a":1,"b":"x"},{"a":2.5}]', samples: true },
    schema: { $schema, type: "object", properties: { a: { type: "number" }, b: { type: "string" } }, required: ["a"] },
  },
  {
    name: "formats",
    input: {
      json: JSON.stringify({
        at: "2025-01-02T03:04:05Z",
        day: "2025-01-02",
        email: "ada@example.com",
        id: "123e4567-e89b-12d3-a456-426614174000",
        ip: "192.168.0.1",
        site: "https://example.com/a?b=c",
        note: "note:x",
        mixed: ["2025-01-02", "ada@example.com"],
        optional: [null, "b@example.com"],
      }),
    },
    schema: {
      $schema,
      type: "object",
      properties: {
        at: { type: "string", format: "date-time" },
        day: { type: "string", format: "date" },
        email: { type: "string", format: "email" },
        id: { type: "string", format: "uuid" },
        ip: { type: "string", format: "ipv4" },
        site: { type: "string", format: "uri" },
        note: { type: "string" },
        mixed: { type: "array", items: { type: "string" } },
        optional: { type: "array", items: { type: ["string", "null"], format: "email" } },
      },
      required: ["at", "day", "email", "id", "ip", "site", "note", "mixed", "optional"],
    },
  },
  {
    name: "a title",
    input: { json: "true", title: "Flag" },
    schema: { $schema, title: "Flag", type: "boolean" },
  },
];

for (const c of cases) {
  test(`schema-gen: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("schema-gen", c.input)).schema, c.schema);
  });
}

test("schema-gen: the inferred schema accepts its sample and rejects a wrong one", async () => {
  const sample = {
    users: [
      { name: "Ada", born: "1815-12-10", langs: ["en", "fr"] },
      { name: "Alan", langs: [] },
    ],
    count: 2,
  };
  const { schema } = dataOf(await service.call("schema-gen", { json: JSON.stringify(sample) }));
  const ajv = new Ajv2020({ strict: true });
  ajvFormats.default(ajv);
  const validate = ajv.compile(schema);
  assert.equal(validate(sample), true, JSON.stringify(validate.errors));
  assert.equal(validate({ ...sample, count: "2" }), false);
  assert.equal(validate({ users: [{ langs: [] }], count: 1 }), false);
});

const refused = [
  { name: "a document that is not JSON", input: { json: "{'a': 1}" }, field: "json" },
  { name: "samples=true with an object", input: { json: '{"a":1}', samples: true }, field: "json" },
  { name: "samples=true with an empty array", input: { json: "[]", samples: true }, field: "json" },
  { name: "nesting deeper than 100 levels", input: { json: "[".repeat(101) + "]".repeat(101) }, field: "json" },
];
for (const c of refused) {
  test(`schema-gen: ${c.name} is a 400 on json`, async () => {
    expectHandler400(await service.call("schema-gen", c.input), c.field);
  });
}

test("schema-gen: 100 levels of nesting are fine", async () => {
  assert.equal(
    dataOf(await service.call("schema-gen", { json: "[".repeat(100) + "]".repeat(100) })).schema.type,
    "array",
  );
});

const bad = [
  { name: "missing json", query: "", field: "json" },
  { name: "a title over 200 characters", query: query({ json: "1", title: "t".repeat(201) }), field: "title" },
  { name: "samples that is not a boolean", query: query({ json: "[1]", samples: "many" }), field: "samples" },
];
for (const c of bad) {
  test(`schema-gen: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/schema-gen?${c.query}`), c.field);
  });
}

test("schema-gen: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/schema-gen?${query({ json: '{"a":1}' })}`));
});
