import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText } from "./_json.ts";
import { languages, syntaxProblems } from "./_syntax.ts";

export default defineEndpoint({
  name: "validate-code",
  method: "GET",
  price: "$0.005",
  summary: "Check the syntax of JavaScript, JSON, YAML, XML or Solidity; errors with line and column",
  description:
    "Syntax only: the code is parsed, never run. JavaScript: latest ECMAScript with acorn (no JSX or TypeScript), " +
    "which stops at the first error. Solidity: solc 0.8 parser, so a version pragma it cannot satisfy is an error. " +
    "Lines and columns are 1-based.",
  input: v.object({
    code: documentText("Source text, at most 100,000 characters"),
    language: v.pipe(v.picklist(languages), v.description("Language to parse")),
    sourceType: v.optional(
      v.pipe(v.picklist(["module", "script"]), v.description("JavaScript only: ES module or classic script")),
      "module",
    ),
  }),
  output: v.object({
    language: v.picklist(languages),
    valid: v.boolean(),
    errors: v.array(v.object({ line: v.number(), column: v.number(), message: v.string() })),
  }),
  example: {
    input: { code: "const total = items.reduce((a, b) => a + b, 0;\n", language: "javascript", sourceType: "module" },
    output: { language: "javascript", valid: false, errors: [{ line: 1, column: 46, message: "Unexpected token" }] },
  },
  async handler({ input }) {
    const errors = await syntaxProblems(input.language, input.code, input.sourceType);
    return { language: input.language, valid: errors.length === 0, errors };
  },
});
