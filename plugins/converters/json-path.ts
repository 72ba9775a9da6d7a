import * as v from "valibot";
import { JSONPath } from "jsonpath-plus";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { documentText, parseJsonField } from "./_json.ts";

interface Match {
  path: string;
  pointer: string;
  value: unknown;
}

export default defineEndpoint({
  name: "json-path",
  method: "GET",
  price: "$0.005",
  summary: "Query a JSON document with JSONPath: matching values with their paths and JSON Pointers",
  description:
    "Supports names, wildcards, recursive descent (..), indices, slices and unions. Filter and script " +
    "expressions ([?(...)], [(...)]) are refused: nothing from the query is ever evaluated as code.",
  input: v.object({
    json: documentText("The JSON document as text, at most 100,000 characters"),
    path: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(2000),
      v.description("JSONPath expression, e.g. $.store.book[*].title"),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description("Most matches to return")),
      100,
    ),
  }),
  output: v.object({
    count: v.pipe(v.number(), v.description("All matches, also those beyond limit")),
    matches: v.array(
      v.object({
        path: v.pipe(v.string(), v.description("Normalized JSONPath, e.g. $['store']['book'][0]")),
        pointer: v.pipe(v.string(), v.description("RFC 6901 JSON Pointer")),
        value: v.unknown(),
      }),
    ),
    truncated: v.boolean(),
  }),
  example: {
    input: {
      json: '{"store":{"book":[{"title":"Dune","price":9},{"title":"Emma","price":5}]}}',
      path: "$.store.book[*].title",
      limit: 100,
    },
    output: {
      count: 2,
      matches: [
        { path: "$['store']['book'][0]['title']", pointer: "/store/book/0/title", value: "Dune" },
        { path: "$['store']['book'][1]['title']", pointer: "/store/book/1/title", value: "Emma" },
      ],
      truncated: false,
    },
  },
  handler({ input }) {
    const json = parseJsonField(input.json, "json");
    let found: Match[];
    try {
      found = JSONPath({ path: input.path, json: json as object, eval: false, resultType: "all", wrap: true }) ?? [];
    } catch (error) {
      const message = /prevented/i.test((error as Error).message)
        ? "Filter and script expressions ([?(...)], [(...)]) are not supported"
        : `The path does not evaluate: ${(error as Error).message}`;
      throw fieldError("path", message);
    }
    const matches = found.slice(0, input.limit).map(({ path, pointer, value }) => ({ path, pointer, value }));
    return { count: found.length, matches, truncated: found.length > input.limit };
  },
});
