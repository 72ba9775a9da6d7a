import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fetchHtml } from "../_shared/page-fetch.ts";
import { parseTables } from "./_table-parse.ts";

const Table = v.object({
  index: v.pipe(v.number(), v.description("Position of the table in the page, from 0")),
  caption: v.nullable(v.string()),
  headers: v.pipe(v.array(v.string()), v.description("Column names; column_N where the table names none")),
  headerDetected: v.pipe(v.boolean(), v.description("True when the names come from <thead> or a row of <th> cells")),
  rows: v.pipe(
    v.array(v.record(v.string(), v.string())),
    v.description("Data rows keyed by column name; spans are copied into every cell they cover"),
  ),
  rowCount: v.pipe(v.number(), v.description("Data rows in the table, before the maxRows cut")),
  truncated: v.boolean(),
});

export default defineEndpoint({
  name: "tables",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "Read the HTML tables of a web page as rows of objects keyed by their headers",
  description:
    "Fetches the page through the egress guard and parses every <table> with cheerio. Headers come from <thead> rows or a first row of <th> cells; " +
    "rowspan and colspan are expanded. Tables built by JavaScript are not seen.",
  input: v.object({
    url: v.pipe(v.string(), v.url(), v.maxLength(2048), v.description("Page holding the tables (http or https)")),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(50),
        v.description("Most tables returned, first ones first"),
      ),
      10,
    ),
    maxRows: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(1000),
        v.description("Most data rows returned per table"),
      ),
      200,
    ),
  }),
  output: v.object({
    url: v.pipe(v.string(), v.description("Final URL after redirects")),
    tableCount: v.pipe(v.number(), v.description("Tables found in the page, before the limit")),
    tables: v.array(Table),
  }),
  example: {
    input: { url: "https://example.com/", limit: 10, maxRows: 200 },
    output: { url: "https://example.com/", tableCount: 0, tables: [] },
  },
  cacheTtl: 600,
  async handler({ input, egress }) {
    const page = await fetchHtml(egress, input.url);
    const { total, tables } = parseTables(page.html, input.limit, input.maxRows);
    return { url: page.url, tableCount: total, tables };
  },
});
