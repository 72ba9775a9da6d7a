import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, postJson } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const person = {
  type: "object",
  required: ["id", "email"],
  properties: { id: { type: "integer" }, email: { type: "string", format: "email" } },
};

const cases = [
  {
    name: "parseable text without a schema is valid",
    input: { json: '{"a": [1, 2]}' },
    expect: { valid: true, parseError: null, draft: null, errors: [], errorCount: 0 },
  },
  {
    name: "a trailing comma is a parse error with its position",
    input: { json: '{"a":1,}' },
    expect: {
      valid: false,
      parseError: { message: "Expected a property name in double quotes", line: 1, column: 8 },
      draft: null,
      errors: [],
      errorCount: 0,
    },
  },
  {
    name: "a missing comma is found on its line",
    input: { json: '{\n  "a": 1\n  "b": 2\n}', schema: person },
    expect: {
      valid: false,
      parseError: { message: "Expected ',' or '}' after a property value", line: 3, column: 3 },
      draft: "2020-12",
      errors: [],
      errorCount: 0,
    },
  },
  {
    name: "a conforming object",
    input: { json: { id: 7, email: "ada@example.com" }, schema: person },
    expect: { valid: true, parseError: null, draft: "2020-12", errors: [], errorCount: 0 },
  },
  {
    name: "every error with its instancePath",
    input: { json: '{"id": "7", "email": "not-an-email"}', schema: person },
    expect: {
      valid: false,
      parseError: null,
      draft: "2020-12",
      errors: [
        {
          instancePath: "/id",
          schemaPath: "#/properties/id/type",
          keyword: "type",
          message: "must be integer",
          params: { type: "integer" },
        },
        {
          instancePath: "/email",
          schemaPath: "#/properties/email/format",
          keyword: "format",
          message: 'must match format "email"',
          params: { format: "email" },
        },
      ],
      errorCount: 2,
    },
  },
  {
    name: "maxErrors caps the list but not the count",
    input: { json: {}, schema: person, maxErrors: 1 },
    expect: {
      valid: false,
      parseError: null,
      draft: "2020-12",
      errors: [
        {
          instancePath: "",
          schemaPath: "#/required",
          keyword: "required",
          message: "must have required property 'id'",
          params: { missingProperty: "id" },
        },
      ],
      errorCount: 2,
    },
  },
  {
    name: "a JSON string value is given as JSON text",
    input: { json: '"abc"', schema: { type: "string", maxLength: 2 } },
    expect: {
      valid: false,
      parseError: null,
      draft: "2020-12",
      errors: [
        {
          instancePath: "",
          schemaPath: "#/maxLength",
          keyword: "maxLength",
          message: "must NOT have more than 2 characters",
          params: { limit: 2 },
        },
      ],
      errorCount: 1,
    },
  },
  {
    name: "draft-07 with definitions and a local $ref",
    input: {
      json: [1, "x"],
      schema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "array",
        items: { $ref: "#/definitions/n" },
        definitions: { n: { type: "number" } },
      },
    },
    expect: {
      valid: false,
      parseError: null,
      draft: "draft-07",
      errors: [
        {
          instancePath: "/1",
          schemaPath: "#/definitions/n/type",
          keyword: "type",
          message: "must be number",
          params: { type: "number" },
        },
      ],
      errorCount: 1,
    },
  },
  {
    name: "2020-12 prefixItems",
    input: {
      json: [1, 2],
      schema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        prefixItems: [{ type: "integer" }],
        items: false,
      },
    },
    expect: {
      valid: false,
      parseError: null,
      draft: "2020-12",
      errors: [
        {
          instancePath: "",
          schemaPath: "#/items",
          keyword: "items",
          message: "must NOT have more than 1 items",
          params: { limit: 1 },
        },
      ],
      errorCount: 1,
    },
  },
];

for (const c of cases) {
  test(`validate-json: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("validate-json", c.input)), c.expect);
  });
}

test("validate-json: patterns that would backtrack run in linear time and still decide", async () => {
  for (const [pattern, text, valid] of [
    ["(a+)+$", "aaaa", true],
    ["^(a|a)+$", `${"a".repeat(25)}b`, false],
    ["^(a*)*$", "a".repeat(50_000), true],
  ] as const) {
    const out = dataOf(
      await service.call("validate-json", { json: JSON.stringify(text), schema: { type: "string", pattern } }),
    );
    assert.equal(out.valid, valid, pattern);
  }
  const keyed = dataOf(
    await service.call("validate-json", {
      json: { ab: 1, b: 2 },
      schema: { patternProperties: { "^a": { type: "string" } } },
    }),
  );
  assert.equal(keyed.valid, false, "patternProperties still select keys");
});

test("validate-json: the same schema compiles once and validates again", async () => {
  const first = dataOf(await service.call("validate-json", { json: { id: 1, email: "a@b.co" }, schema: person }));
  const second = dataOf(await service.call("validate-json", { json: { id: "1", email: "a@b.co" }, schema: person }));
  assert.equal(first.valid, true);
  assert.equal(second.valid, false);
});

const refused = [
  {
    name: "a remote $ref is never fetched",
    schema: { $ref: "https://example.com/schema.json" },
    message: /can't resolve reference/,
  },
  {
    name: "a pattern with a lookahead (RE2 has none)",
    schema: { type: "string", pattern: "^(?=a)a+$" },
    message: /not supported/,
  },
  {
    name: "a patternProperties key with a backreference",
    schema: { patternProperties: { "^(a)\\1$": {} } },
    message: /not supported/,
  },
  { name: "an invalid schema", schema: { type: "strin" }, message: /schema is invalid/ },
  { name: "an array", schema: [1], message: /not an array/ },
  { name: "an $async schema", schema: { $async: true, type: "object" }, message: /\$async/ },
  {
    name: "an unsupported draft",
    schema: { $schema: "http://json-schema.org/draft-04/schema#" },
    message: /not supported/,
  },
  { name: "a schema over 100,000 characters", schema: { enum: ["x".repeat(100_000)] }, message: /at most 100000/ },
];
for (const c of refused) {
  test(`validate-json: ${c.name} is a 400 on schema`, async () => {
    const issue = expectHandler400(await service.call("validate-json", { json: "{}", schema: c.schema }), "schema");
    assert.match(issue.message, c.message);
  });
}

const bad = [
  { name: "missing json", body: { schema: person }, field: "json" },
  { name: "schema that is not an object", body: { json: "{}", schema: "x" }, field: "schema" },
  { name: "maxErrors of 0", body: { json: "{}", maxErrors: 0 }, field: "maxErrors" },
];
for (const c of bad) {
  test(`validate-json: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request("/v1/validate-json", postJson(c.body)), c.field);
  });
}

test("validate-json: GET is not the method", async () => {
  const res = await service.request("/v1/validate-json?json=1");
  assert.equal(res.status, 405);
});

test("validate-json: valid input without payment is a 402", async () => {
  await expect402(await service.request("/v1/validate-json", postJson({ json: "{}" })));
});
