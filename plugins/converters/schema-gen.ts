import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { documentText, parseJsonField } from "./_json.ts";
import { inferSchema } from "./_infer-schema.ts";

export default defineEndpoint({
  name: "schema-gen",
  method: "GET",
  price: "$0.005",
  summary: "Infer a JSON Schema (2020-12) from a sample JSON document: types, required keys, array items, formats",
  description:
    "A key is required when every object seen at that place has it. Array elements are merged into one items " +
    "schema. Strings that all match get a format: date-time, date, email, uuid, ipv4 or uri. With samples=true a " +
    "top-level array is read as a list of separate samples of one document.",
  input: v.object({
    json: documentText("A sample JSON document as text, at most 100,000 characters"),
    samples: v.optional(
      v.pipe(v.boolean(), v.description("The document is an array of samples: infer the schema of one element")),
      false,
    ),
    title: v.optional(v.pipe(v.string(), v.maxLength(200), v.description("Title to put on the schema"))),
  }),
  output: v.object({
    schema: v.pipe(v.record(v.string(), v.unknown()), v.description("The inferred JSON Schema 2020-12")),
  }),
  example: {
    input: {
      json: '{"id":1,"email":"ada@example.com","tags":["a"],"orders":[{"at":"2025-01-02T03:04:05Z","total":9.5},{"at":"2025-02-01T00:00:00Z"}]}',
      samples: false,
    },
    output: {
      schema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          id: { type: "integer" },
          email: { type: "string", format: "email" },
          tags: { type: "array", items: { type: "string" } },
          orders: {
            type: "array",
            items: {
              type: "object",
              properties: { at: { type: "string", format: "date-time" }, total: { type: "number" } },
              required: ["at"],
            },
          },
        },
        required: ["id", "email", "tags", "orders"],
      },
    },
  },
  handler({ input }) {
    const document = parseJsonField(input.json, "json");
    if (input.samples && (!Array.isArray(document) || document.length === 0)) {
      const message = "With samples=true the document must be a non-empty array of samples";
      throw fieldError("json", message);
    }
    const schema = inferSchema(input.samples ? (document as unknown[]) : [document]);
    return { schema: input.title ? { $schema: schema.$schema, title: input.title, ...schema } : schema };
  },
});
