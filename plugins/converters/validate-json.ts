import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { assertDepth, tryParseJson } from "./_json.ts";
import { compileSchema, draftOf, drafts } from "./_schema-check.ts";

const ValidationError = v.object({
  instancePath: v.pipe(v.string(), v.description("JSON Pointer to the offending value; empty for the whole document")),
  schemaPath: v.string(),
  keyword: v.string(),
  message: v.string(),
  params: v.record(v.string(), v.unknown()),
});

export default defineEndpoint({
  name: "validate-json",
  method: "POST",
  price: "$0.005",
  summary: "Check that JSON parses and, given a JSON Schema (2020-12, 2019-09 or draft-07), that it conforms",
  description:
    "A string `json` is parsed as JSON text (syntax errors come back with line and column); any other value is " +
    "validated as is. Remote `$ref`s are never fetched. Formats (email, date-time, uri, ...) are checked.",
  input: v.object({
    json: v.pipe(v.unknown(), v.description("The document: JSON text to parse, or any JSON value")),
    schema: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.description("A JSON Schema object, at most 100,000 characters as JSON"),
      ),
    ),
    maxErrors: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(1000),
        v.description("Most validation errors to return"),
      ),
      100,
    ),
  }),
  output: v.object({
    valid: v.boolean(),
    parseError: v.nullable(v.object({ message: v.string(), line: v.number(), column: v.number() })),
    draft: v.nullable(v.picklist(drafts)),
    errors: v.array(ValidationError),
    errorCount: v.pipe(v.number(), v.description("All errors found, also those beyond maxErrors")),
  }),
  example: {
    input: {
      json: '{"id": "7", "email": "ada@example.com"}',
      schema: {
        type: "object",
        required: ["id", "email"],
        properties: { id: { type: "integer" }, email: { type: "string", format: "email" } },
      },
      maxErrors: 100,
    },
    output: {
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
      ],
      errorCount: 1,
    },
  },
  handler({ input }) {
    const draft = input.schema ? draftOf(input.schema) : null;
    const validate = input.schema && draft ? compileSchema(input.schema, draft) : undefined;
    let document = input.json;
    if (typeof document === "string") {
      const parsed = tryParseJson(document);
      if (!parsed.ok) return { valid: false, parseError: parsed.error, draft, errors: [], errorCount: 0 };
      document = parsed.value;
    }
    if (!validate) return { valid: true, parseError: null, draft, errors: [], errorCount: 0 };
    assertDepth(document, "json");
    const valid = validate(document);
    const errors = (validate.errors ?? []).map((e) => ({
      instancePath: e.instancePath,
      schemaPath: e.schemaPath,
      keyword: e.keyword,
      message: e.message ?? e.keyword,
      params: { ...e.params },
    }));
    return { valid, parseError: null, draft, errors: errors.slice(0, input.maxErrors), errorCount: errors.length };
  },
});
