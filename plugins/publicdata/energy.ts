import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound } from "../../core/runtime/errors.ts";

/** What the code reads of an EIA v2 data answer: rows keyed by column, values strings or numbers as EIA sends them. */
const EiaAnswer = v.object({
  response: v.object({
    total: v.union([v.string(), v.number()]),
    data: v.array(v.objectWithRest({ period: v.string() }, v.nullable(v.union([v.string(), v.number()])))),
  }),
});

type Frequency = "daily" | "weekly" | "monthly";
interface SeriesDef {
  route: string;
  frequency: Frequency;
  column: string;
  facets: (state: string) => Record<string, string>;
  page: string;
}

/** Each of our series is one EIA v2 route with its facets; the EIA series ids are the ones on eia.gov's own pages. */
const seriesDefs: Record<string, SeriesDef> = {
  wti: {
    route: "petroleum/pri/spt",
    frequency: "daily",
    column: "value",
    facets: () => ({ series: "RWTC" }),
    page: "https://www.eia.gov/dnav/pet/hist/RWTCD.htm",
  },
  brent: {
    route: "petroleum/pri/spt",
    frequency: "daily",
    column: "value",
    facets: () => ({ series: "RBRTE" }),
    page: "https://www.eia.gov/dnav/pet/hist/RBRTED.htm",
  },
  "henry-hub": {
    route: "natural-gas/pri/fut",
    frequency: "daily",
    column: "value",
    facets: () => ({ series: "RNGWHHD" }),
    page: "https://www.eia.gov/dnav/ng/hist/rngwhhdD.htm",
  },
  gasoline: {
    route: "petroleum/pri/gnd",
    frequency: "weekly",
    column: "value",
    facets: () => ({ series: "EMM_EPMR_PTE_NUS_DPG" }),
    page: "https://www.eia.gov/petroleum/gasdiesel/",
  },
  diesel: {
    route: "petroleum/pri/gnd",
    frequency: "weekly",
    column: "value",
    facets: () => ({ series: "EMD_EPD2D_PTE_NUS_DPG" }),
    page: "https://www.eia.gov/petroleum/gasdiesel/",
  },
  "electricity-residential": {
    route: "electricity/retail-sales",
    frequency: "monthly",
    column: "price",
    facets: (state) => ({ stateid: state, sectorid: "RES" }),
    page: "https://www.eia.gov/electricity/data/browser/",
  },
};
const names = Object.keys(seriesDefs) as [string, ...string[]];

export default defineEndpoint({
  name: "energy",
  method: "GET",
  price: "$0.01",
  summary:
    "US energy prices from the EIA: WTI and Brent crude, Henry Hub gas, retail gasoline and diesel, residential electricity by state",
  description:
    "From the US Energy Information Administration API v2 (public domain; needs UPSTREAM_EIA_KEY, free). Newest first. Daily series " +
    "(wti, brent, henry-hub) in $/barrel or $/MMBtu, weekly retail fuel in $/gallon, monthly residential electricity in cents/kWh " +
    "(`state` two letters, US for the national average). Values stay strings as EIA sends them. A range with no data is a 404.",
  input: v.object({
    series: v.pipe(
      v.picklist(names),
      v.description("wti, brent, henry-hub, gasoline, diesel or electricity-residential"),
    ),
    start: v.optional(v.pipe(v.string(), v.isoDate(), v.description("First day, YYYY-MM-DD"))),
    end: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Last day, YYYY-MM-DD"))),
    state: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2}$/, "two-letter state code"),
        v.description("For electricity-residential: state, or US"),
      ),
      "US",
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500), v.description("Most observations returned")),
      30,
    ),
  }),
  output: v.object({
    series: v.string(),
    title: v.nullable(v.string()),
    unit: v.nullable(v.string()),
    frequency: v.string(),
    total: v.pipe(v.number(), v.description("Observations EIA holds in the range")),
    observations: v.array(
      v.object({
        period: v.pipe(v.string(), v.description("YYYY-MM-DD, or YYYY-MM for monthly")),
        value: v.nullable(v.string()),
      }),
    ),
    url: v.pipe(v.string(), v.description("The series on eia.gov")),
  }),
  example: {
    input: { series: "wti", limit: 2 },
    output: {
      series: "wti",
      title: "Cushing, OK WTI Spot Price FOB (Dollars per Barrel)",
      unit: "$/BBL",
      frequency: "daily",
      total: 9835,
      observations: [
        { period: "2025-01-13", value: "78.82" },
        { period: "2025-01-10", value: "77.99" },
      ],
      url: "https://www.eia.gov/dnav/pet/hist/RWTCD.htm",
    },
  },
  cacheTtl: 3 * 3600,
  upstreams: ["eia"],
  async handler({ input, upstream }) {
    if (input.start && input.end && input.start > input.end)
      throw badRequest("start is after end", { issues: [{ field: "start", message: "must not be after end" }] });
    const def = seriesDefs[input.series];
    const cut = (day?: string) => (day && def.frequency === "monthly" ? day.slice(0, 7) : day);
    const query: Record<string, string | number | undefined> = {
      frequency: def.frequency,
      "data[0]": def.column,
      "sort[0][column]": "period",
      "sort[0][direction]": "desc",
      start: cut(input.start),
      end: cut(input.end),
      length: input.limit,
    };
    for (const [facet, value] of Object.entries(def.facets(input.state.toUpperCase())))
      query[`facets[${facet}][]`] = value;
    const { response } = await upstream("eia").json(`/${def.route}/data/`, EiaAnswer, { query });
    if (!response.data.length) throw notFound(`EIA has no ${input.series} data in that range`);
    const first = response.data[0];
    return {
      series: input.series,
      title: first.stateDescription
        ? `Average residential electricity price, ${first.stateDescription}`
        : String(first["series-description"] ?? "") || null,
      unit: String(first.units ?? first[`${def.column}-units`] ?? "") || null,
      frequency: def.frequency,
      total: Number(response.total),
      observations: response.data.map((row) => ({
        period: row.period,
        value: row[def.column] == null ? null : String(row[def.column]),
      })),
      url: def.page,
    };
  },
});
