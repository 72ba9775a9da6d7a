import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound } from "../../core/runtime/errors.ts";

/** What the code reads of one Quick Stats row (every column comes, blank when not applicable). */
const QuickStatsRow = v.object({
  source_desc: v.string(),
  commodity_desc: v.string(),
  short_desc: v.string(),
  statisticcat_desc: v.string(),
  unit_desc: v.string(),
  domain_desc: v.string(),
  agg_level_desc: v.string(),
  location_desc: v.string(),
  state_alpha: v.optional(v.string()),
  county_name: v.optional(v.string()),
  year: v.number(),
  freq_desc: v.string(),
  reference_period_desc: v.string(),
  week_ending: v.optional(v.string()),
  Value: v.string(),
  "CV (%)": v.optional(v.string()),
});
type QuickStatsRow = v.InferOutput<typeof QuickStatsRow>;

/** Quick Stats refuses queries above 50,000 rows. */
const upstreamRowCap = 50_000;
const Upper = (max: number, what: string) =>
  v.pipe(v.string(), v.minLength(2), v.maxLength(max), v.regex(/^[A-Za-z0-9 ,&()/.-]+$/, `not a Quick Stats ${what}`));

export default defineEndpoint({
  name: "nass",
  method: "GET",
  price: "$0.01",
  summary: "USDA NASS Quick Stats: US crop and livestock production, yields, acreage, prices and inventories",
  description:
    "From USDA NASS Quick Stats (needs UPSTREAM_NASS_KEY). Names follow Quick Stats' own vocabulary (CORN, SOYBEANS, CATTLE; PRODUCTION, " +
    'YIELD, AREA PLANTED, PRICE RECEIVED, INVENTORY); any case. Values are kept as NASS publishes them ("15,341,000", "(D)" when withheld) ' +
    "with a parsed number beside. A query with no data is a 404; one matching more than 50,000 rows is a 400.",
  input: v.object({
    commodity: v.pipe(Upper(60, "commodity"), v.description("Commodity, e.g. CORN, WHEAT, SOYBEANS, CATTLE, MILK")),
    statistic: v.optional(
      v.pipe(
        Upper(60, "statistic"),
        v.description("Statistic category, e.g. PRODUCTION, YIELD, AREA PLANTED, PRICE RECEIVED"),
      ),
    ),
    year: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1850), v.maxValue(2100), v.description("One year"))),
    state: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2}$/, "not a two-letter state code"),
        v.description("US state code, e.g. IA"),
      ),
    ),
    level: v.optional(
      v.pipe(v.picklist(["NATIONAL", "STATE", "COUNTY"]), v.description("Geographic level of the rows")),
    ),
    source: v.optional(
      v.pipe(v.picklist(["SURVEY", "CENSUS"]), v.description("Annual surveys or the five-yearly census")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500), v.description("Most rows returned")),
      100,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Rows Quick Stats matched")),
    rows: v.array(
      v.object({
        description: v.pipe(
          v.string(),
          v.description("Quick Stats' full name of the series, e.g. CORN, GRAIN - YIELD, MEASURED IN BU / ACRE"),
        ),
        commodity: v.string(),
        statistic: v.string(),
        unit: v.string(),
        value: v.pipe(v.string(), v.description("As NASS publishes it")),
        number: v.pipe(
          v.nullable(v.number()),
          v.description("The value as a number; null when withheld or not applicable"),
        ),
        cvPercent: v.nullable(v.string()),
        year: v.number(),
        period: v.pipe(v.string(), v.description("Reference period, e.g. YEAR, MARKETING YEAR, JAN")),
        frequency: v.string(),
        weekEnding: v.nullable(v.string()),
        level: v.string(),
        location: v.string(),
        state: v.nullable(v.string()),
        county: v.nullable(v.string()),
        source: v.string(),
        domain: v.string(),
      }),
    ),
  }),
  example: {
    input: { commodity: "CORN", statistic: "YIELD", year: 2023, level: "NATIONAL", source: "SURVEY", limit: 1 },
    output: {
      total: 1,
      rows: [
        {
          description: "CORN, GRAIN - YIELD, MEASURED IN BU / ACRE",
          commodity: "CORN",
          statistic: "YIELD",
          unit: "BU / ACRE",
          value: "177.3",
          number: 177.3,
          cvPercent: null,
          year: 2023,
          period: "YEAR",
          frequency: "ANNUAL",
          weekEnding: null,
          level: "NATIONAL",
          location: "US TOTAL",
          state: "US",
          county: null,
          source: "SURVEY",
          domain: "TOTAL",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["nass"],
  async handler({ input, upstream }) {
    const api = upstream("nass");
    const query = {
      commodity_desc: input.commodity.toUpperCase(),
      statisticcat_desc: input.statistic?.toUpperCase(),
      year: input.year,
      state_alpha: input.state?.toUpperCase(),
      agg_level_desc: input.level,
      source_desc: input.source,
    };
    const { count } = await api.json("/get_counts/", v.object({ count: v.number() }), { query });
    if (count === 0) throw notFound("Quick Stats has no rows for this query");
    if (count > upstreamRowCap)
      throw badRequest(`the query matches ${count} rows, above Quick Stats' 50,000; add year, state or statistic`);
    const { data } = await api.json("/api_GET/", v.object({ data: v.array(QuickStatsRow) }), {
      query: { ...query, format: "JSON" },
    });
    return { total: count, rows: data.slice(0, input.limit).map(rowOf) };
  },
});

const blankToNull = (text: string) => (text.trim() === "" ? null : text.trim());

function rowOf(r: QuickStatsRow) {
  const plain = r.Value.replaceAll(",", "").trim();
  return {
    description: r.short_desc,
    commodity: r.commodity_desc,
    statistic: r.statisticcat_desc,
    unit: r.unit_desc,
    value: r.Value.trim(),
    number: /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : null,
    cvPercent: blankToNull(r["CV (%)"] ?? ""),
    year: r.year,
    period: r.reference_period_desc,
    frequency: r.freq_desc,
    weekEnding: blankToNull(r.week_ending ?? ""),
    level: r.agg_level_desc,
    location: r.location_desc,
    state: blankToNull(r.state_alpha ?? ""),
    county: blankToNull(r.county_name ?? ""),
    source: r.source_desc,
    domain: r.domain_desc,
  };
}
