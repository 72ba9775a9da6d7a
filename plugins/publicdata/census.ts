import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound, ServiceError, checkUpstream } from "../../core/runtime/errors.ts";

/** What the code reads of the Bureau's answer: a table of strings (null where no value), its first row the column names. */
const Table = v.tupleWithRest([v.array(v.string())], v.array(v.nullable(v.string())));

const geoPattern = /^[a-z][a-z ()/-]{1,60}:(\*|[0-9A-Za-z]{1,12}(,[0-9A-Za-z]{1,12}){0,49})$/;

export default defineEndpoint({
  name: "census",
  method: "GET",
  price: "$0.01",
  summary: "US Census Bureau data (ACS, decennial census, ...): any variables for states, counties, places or tracts",
  description:
    "From the US Census Data API (public domain; optional UPSTREAM_CENSUS_KEY lifts the keyless daily limit). Give the dataset path " +
    "(acs/acs5, acs/acs1, dec/pl, dec/dhc, ...), its year, variable codes (NAME, B01001_001E total population, B19013_001E median household " +
    "income, ...) and the geography (`for` state:*, county:037, with `in` state:06). Values stay strings as the Bureau sends them (negative " +
    "codes such as -666666666 mean not available). An unknown dataset or year, or a geography with no data, is a 404; an unknown variable a 400.",
  input: v.object({
    dataset: v.pipe(
      v.string(),
      v.regex(/^[a-z0-9]+(\/[a-z0-9]+){0,3}$/, "a dataset path such as acs/acs5"),
      v.description("Dataset path, e.g. acs/acs5 or dec/pl"),
    ),
    year: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1790),
        v.maxValue(2100),
        v.description("Vintage; leave out for timeseries datasets"),
      ),
    ),
    variables: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_]{1,40}(,[A-Za-z0-9_]{1,40}){0,49}$/, "variable codes separated by commas"),
      v.description("Variable codes, e.g. NAME,B01001_001E"),
    ),
    for: v.pipe(
      v.string(),
      v.regex(geoPattern, "geography:code, e.g. state:* or county:037"),
      v.description("Geography to list, e.g. state:*, county:*, place:44000"),
    ),
    in: v.optional(
      v.pipe(
        v.string(),
        v.regex(
          /^[a-z][a-z ()/-]{1,60}:[0-9A-Za-z*]{1,12}( [a-z][a-z ()/-]{1,60}:[0-9A-Za-z*]{1,12}){0,3}$/,
          "geography:code, e.g. state:06",
        ),
        v.description("Enclosing geography, e.g. state:06"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000), v.description("Most rows returned")),
      1000,
    ),
  }),
  output: v.object({
    dataset: v.string(),
    year: v.nullable(v.number()),
    total: v.pipe(v.number(), v.description("Rows the Bureau returned")),
    rows: v.array(
      v.object({
        values: v.pipe(v.record(v.string(), v.nullable(v.string())), v.description("By variable code, as published")),
        geography: v.pipe(
          v.record(v.string(), v.string()),
          v.description('FIPS codes of the row\'s geography, e.g. {state: "06"}'),
        ),
      }),
    ),
    url: v.pipe(v.string(), v.description("The query at api.census.gov")),
  }),
  example: {
    input: { dataset: "acs/acs5", year: 2022, variables: "NAME,B01001_001E", for: "state:06,48" },
    output: {
      dataset: "acs/acs5",
      year: 2022,
      total: 2,
      rows: [
        { values: { NAME: "California", B01001_001E: "39356104" }, geography: { state: "06" } },
        { values: { NAME: "Texas", B01001_001E: "29243342" }, geography: { state: "48" } },
      ],
      url: "https://api.census.gov/data/2022/acs/acs5?get=NAME%2CB01001_001E&for=state%3A06%2C48",
    },
  },
  cacheTtl: 30 * 24 * 3600,
  upstreams: ["census"],
  async handler({ input, upstream }) {
    const path = `/${input.year ? `${input.year}/` : ""}${input.dataset}`;
    const query = { get: input.variables, for: input.for, in: input.in };
    const body = await upstream("census")
      .text(path, { query, notFoundAs404: true, keepErrorBody: true })
      .catch(refusal);
    // The Bureau answers 204 with no body when the geography has no data.
    if (!body.trim()) throw notFound("the Census Bureau has no data for this geography");
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ServiceError(502, "upstream_error", "census answered something other than a JSON table", {
        upstream: "census",
      });
    }
    const [header, ...rows] = checkUpstream("census", Table, parsed);
    const asked = new Set(input.variables.split(","));
    return {
      dataset: input.dataset,
      year: input.year ?? null,
      total: rows.length,
      rows: rows.slice(0, input.limit).map((row) => {
        const values: Record<string, string | null> = {};
        const geography: Record<string, string> = {};
        header.forEach((column, i) => {
          if (asked.has(column)) values[column] = row[i] ?? null;
          else geography[column] = row[i] ?? "";
        });
        return { values, geography };
      }),
      url: `https://api.census.gov/data${path}?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))}`,
    };
  },
});

/** The Bureau refuses an unknown variable or geography with a 400 and a plain-text reason. */
function refusal(error: unknown): never {
  const details =
    error instanceof ServiceError ? (error.details as { status?: number; body?: unknown } | undefined) : undefined;
  if (details?.status !== 400) throw error;
  const reason = String(details.body ?? "")
    .replace(/^(error:\s*)+/i, "")
    .trim();
  throw badRequest(`The Census Bureau refused the query: ${reason || "bad request"}`);
}
