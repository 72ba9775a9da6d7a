import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, fieldError } from "../../core/runtime/errors.ts";
import { assertDepth, documentText } from "./_json.ts";
import { assertYamlDepth, yamlLibrary } from "./_yaml.ts";

/** Aliases a document may resolve: enough for real configs, far too few for a billion-laughs bomb. */
const MAX_ALIASES = 100;

export default defineEndpoint({
  name: "yaml2json",
  method: "GET",
  price: "$0.005",
  summary: "Convert YAML (1.2, one or several documents) to JSON, with line and column for errors",
  description:
    "One document gives its value; a stream of several (separated by ---) gives an array of their values, and " +
    "documents tells how many there were. Merge keys (<<) are applied. Duplicate keys are an error. Values JSON " +
    "cannot hold become JSON: .inf and .nan turn into null, !!binary into base64 text, a collection used as a key " +
    "into its YAML text. Unknown tags are ignored with a warning.",
  input: v.object({
    yaml: documentText("YAML text, at most 100,000 characters"),
  }),
  output: v.object({
    json: v.pipe(v.unknown(), v.description("The value of the document, or an array of values when there are several")),
    documents: v.number(),
    warnings: v.array(v.string()),
  }),
  example: {
    input: { yaml: "defaults: &defaults\n  retries: 3\nservice:\n  <<: *defaults\n  name: api\n  ports: [80, 443]\n" },
    output: {
      json: { defaults: { retries: 3 }, service: { retries: 3, name: "api", ports: [80, 443] } },
      documents: 1,
      warnings: [],
    },
  },
  async handler({ input }) {
    await assertYamlDepth(input.yaml, "yaml");
    const { parseAllDocuments } = await yamlLibrary();
    const docs = parseAllDocuments(input.yaml, { merge: true, uniqueKeys: true, schema: "core", logLevel: "error" });
    if (docs.length === 0) return { json: null, documents: 0, warnings: [] };
    const error = docs.flatMap((doc) => doc.errors)[0];
    if (error) {
      const { line, col } = error.linePos?.[0] ?? { line: 1, col: 1 };
      const message = error.message.split("\n")[0].replace(/ at line \d+, column \d+:$/, "");
      throw badRequest(`The YAML does not parse: ${message} at line ${line}, column ${col}`, {
        issues: [{ field: "yaml", message, line, column: col }],
      });
    }
    const values = docs.map((doc) => {
      try {
        return doc.toJS({ maxAliasCount: MAX_ALIASES });
      } catch (e) {
        const message = (e as Error).message;
        throw badRequest(`The YAML does not convert: ${message}`, { issues: [{ field: "yaml", message }] });
      }
    });
    const json = toJson(values.length === 1 ? values[0] : values);
    assertDepth(json, "yaml");
    const warnings = docs.flatMap((doc) => doc.warnings).map((w) => w.message.split("\n")[0].replace(/:$/, ""));
    return { json, documents: docs.length, warnings };
  },
});

/** What JSON can hold: binary (!!binary) as base64, dates as ISO strings, non-finite numbers as null. */
function toJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value, function (this: Record<string, unknown>, key, json) {
      const raw = this[key];
      return raw instanceof Uint8Array ? Buffer.from(raw).toString("base64") : json;
    });
    return JSON.parse(text ?? "null");
  } catch (error) {
    const message =
      error instanceof TypeError
        ? "An alias refers to the node that contains it; JSON cannot hold a cycle"
        : (error as Error).message;
    throw fieldError("yaml", message);
  }
}
