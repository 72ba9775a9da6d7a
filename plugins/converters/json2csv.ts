import * as v from "valibot";
import Papa from "papaparse";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { documentText, isPlainObject, parseJsonField } from "./_json.ts";

const MAX_COLUMNS = 1000;

export default defineEndpoint({
  name: "json2csv",
  method: "GET",
  price: "$0.005",
  summary: "Convert a JSON array of objects to CSV, flattening nested objects into dotted column names",
  description:
    "Columns are the union of every row's keys in first-seen order, or the ones you list. Nested objects become " +
    "dotted columns (address.city); arrays are written as JSON text. A single object is one row; a row that is an " +
    "array uses its indices as columns; a scalar row goes in a 'value' column. Cells starting with = + - @ are " +
    "prefixed with ' so spreadsheets do not run them as formulas (escapeFormulae).",
  input: v.object({
    json: documentText("A JSON array of rows (or one object) as text, at most 100,000 characters"),
    delimiter: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(tab|[^\r\n"])$/, "Expected tab or a single character"),
        v.description("Field delimiter: one character, or 'tab'"),
      ),
      ",",
    ),
    header: v.optional(v.pipe(v.boolean(), v.description("Write a header row")), true),
    columns: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.maxLength(500))),
        v.maxLength(MAX_COLUMNS),
        v.description("Columns to write, in order (comma-separated); default all"),
      ),
    ),
    escapeFormulae: v.optional(v.pipe(v.boolean(), v.description("Guard against CSV formula injection")), true),
  }),
  output: v.object({
    csv: v.string(),
    columns: v.array(v.string()),
    rowCount: v.number(),
  }),
  example: {
    input: {
      json: '[{"name":"Ada","address":{"city":"London"},"tags":["x","y"]},{"name":"Alan","score":-1}]',
      delimiter: ",",
      header: true,
      escapeFormulae: true,
    },
    output: {
      csv: 'name,address.city,tags,score\r\nAda,London,"[""x"",""y""]",\r\nAlan,,,-1',
      columns: ["name", "address.city", "tags", "score"],
      rowCount: 2,
    },
  },
  handler({ input }) {
    const document = parseJsonField(input.json, "json");
    const rows = (Array.isArray(document) ? document : [document]).map(toRecord);
    const columns = input.columns?.length ? input.columns : unionOfKeys(rows);
    if (columns.length > MAX_COLUMNS) {
      const message = `The rows have ${columns.length} columns; at most ${MAX_COLUMNS} are supported`;
      throw fieldError("json", message);
    }
    if (columns.length === 0) return { csv: "", columns, rowCount: rows.length };
    const csv = Papa.unparse(rows, {
      columns,
      header: input.header,
      delimiter: input.delimiter === "tab" ? "\t" : input.delimiter,
      escapeFormulae: input.escapeFormulae,
    });
    return { csv, columns, rowCount: rows.length };
  },
});

type Cell = string | number | boolean | null;

function toRecord(row: unknown): Record<string, Cell> {
  if (isPlainObject(row)) return flatten(row, "", {});
  if (Array.isArray(row)) return Object.fromEntries(row.map((cell, i) => [String(i), toCell(cell)]));
  return { value: toCell(row) };
}

function flatten(object: Record<string, unknown>, prefix: string, into: Record<string, Cell>): Record<string, Cell> {
  for (const [key, value] of Object.entries(object)) {
    const name = prefix + key;
    if (isPlainObject(value) && Object.keys(value).length) flatten(value, `${name}.`, into);
    else
      Object.defineProperty(into, name, { value: toCell(value), enumerable: true, writable: true, configurable: true });
  }
  return into;
}

const toCell = (value: unknown): Cell =>
  value !== null && typeof value === "object" ? JSON.stringify(value) : (value as Cell);

function unionOfKeys(rows: Record<string, Cell>[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  return [...keys];
}
