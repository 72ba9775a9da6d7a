import * as v from "valibot";
import Papa from "papaparse";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText } from "./_json.ts";

const MAX_ERRORS = 100;

export default defineEndpoint({
  name: "csv2json",
  method: "GET",
  price: "$0.005",
  summary: "Parse CSV into JSON rows (objects keyed by the header, or arrays), with delimiter detection",
  description:
    "A UTF-8 byte order mark is dropped and empty lines are skipped. Duplicate header names are renamed " +
    "(a, a_1) and listed in renamedHeaders. Malformed rows are still returned and listed in errors.",
  input: v.object({
    csv: documentText("CSV text, at most 100,000 characters"),
    delimiter: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(auto|tab|[^\r\n"])$/, "Expected auto, tab or a single character"),
        v.description("'auto' to detect, 'tab', or one character such as ',' or ';'"),
      ),
      "auto",
    ),
    header: v.optional(
      v.pipe(v.boolean(), v.description("The first row names the columns: rows become objects")),
      true,
    ),
    dynamicTyping: v.optional(
      v.pipe(
        v.boolean(),
        v.description("Turn numbers and true/false into JSON numbers and booleans, empty cells into null"),
      ),
      false,
    ),
    maxRows: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000), v.description("Most rows to return")),
      1000,
    ),
  }),
  output: v.object({
    rows: v.array(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
    fields: v.pipe(v.array(v.string()), v.description("Column names when header is true")),
    rowCount: v.number(),
    truncated: v.pipe(v.boolean(), v.description("More rows followed than maxRows")),
    delimiter: v.string(),
    renamedHeaders: v.record(v.string(), v.string()),
    errors: v.array(
      v.object({
        row: v.pipe(v.nullable(v.number()), v.description("0-based index into rows")),
        code: v.string(),
        message: v.string(),
      }),
    ),
  }),
  example: {
    input: {
      csv: "name;age;member\nAda;36;true\nAlan;41;false",
      delimiter: "auto",
      header: true,
      dynamicTyping: true,
      maxRows: 1000,
    },
    output: {
      rows: [
        { name: "Ada", age: 36, member: true },
        { name: "Alan", age: 41, member: false },
      ],
      fields: ["name", "age", "member"],
      rowCount: 2,
      truncated: false,
      delimiter: ";",
      renamedHeaders: {},
      errors: [],
    },
  },
  handler({ input }) {
    const parsed = Papa.parse<Record<string, unknown> | unknown[]>(input.csv.replace(/^\uFEFF/, ""), {
      delimiter: input.delimiter === "auto" ? "" : input.delimiter === "tab" ? "\t" : input.delimiter,
      header: input.header,
      dynamicTyping: input.dynamicTyping,
      skipEmptyLines: true,
      preview: input.maxRows + 1,
    });
    const rows = parsed.data.slice(0, input.maxRows);
    const errors = parsed.errors
      .filter((e) => e.code !== "UndetectableDelimiter" && (e.row === undefined || e.row < input.maxRows))
      .slice(0, MAX_ERRORS)
      .map((e) => ({ row: e.row ?? null, code: e.code, message: e.message }));
    return {
      rows,
      fields: parsed.meta.fields ?? [],
      rowCount: rows.length,
      truncated: parsed.data.length > input.maxRows,
      delimiter: parsed.meta.delimiter,
      renamedHeaders: (parsed.meta as { renamedHeaders?: Record<string, string> | null }).renamedHeaders ?? {},
      errors,
    };
  },
});
