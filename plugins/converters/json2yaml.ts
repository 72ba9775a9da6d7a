import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText, parseJsonField } from "./_json.ts";
import { yamlLibrary } from "./_yaml.ts";

/** A YAML 1.2 integer that YAML 1.1 reads as a string: it needs quotes to stay a string in 1.2. */
const octal12 = /^0o[0-7]+$/;

export default defineEndpoint({
  name: "json2yaml",
  method: "GET",
  price: "$0.005",
  summary: "Convert JSON to YAML, keeping key order and quoting strings that YAML readers would misread",
  description:
    'Strings such as "no", "on", "1e3" or "2001-12-14" are quoted, so the YAML reads back as the same ' +
    "JSON under both YAML 1.1 (PyYAML, go-yaml v2) and YAML 1.2 readers. Long strings are not folded.",
  input: v.object({
    json: documentText("The JSON document as text, at most 100,000 characters"),
    indent: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8), v.description("Spaces per indentation level")),
      2,
    ),
    sortKeys: v.optional(v.pipe(v.boolean(), v.description("Sort the keys of every mapping")), false),
  }),
  output: v.object({
    yaml: v.string(),
  }),
  example: {
    input: {
      json: '{"name":"app","debug":false,"country":"no","ports":[80,443],"db":{"host":"localhost"}}',
      indent: 2,
      sortKeys: false,
    },
    output: { yaml: 'name: app\ndebug: false\ncountry: "no"\nports:\n  - 80\n  - 443\ndb:\n  host: localhost\n' },
  },
  async handler({ input }) {
    const value = parseJsonField(input.json, "json");
    const { Document, isScalar, visit } = await yamlLibrary();
    // Written with the 1.1 schema so 1.1 booleans, numbers and dates are quoted; 1.2-only forms are quoted below.
    const doc = new Document(value, { version: "1.1", sortMapEntries: input.sortKeys, aliasDuplicateObjects: false });
    visit(doc, {
      Scalar(_, node) {
        if (isScalar(node) && typeof node.value === "string" && octal12.test(node.value)) node.type = "QUOTE_DOUBLE";
      },
    });
    return { yaml: doc.toString({ indent: input.indent, lineWidth: 0, minContentWidth: 0 }) };
  },
});
