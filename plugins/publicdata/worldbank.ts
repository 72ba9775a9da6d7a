import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound } from "../../core/runtime/errors.ts";

const WbPage = v.object({ page: v.number(), pages: v.number(), total: v.number(), lastupdated: v.nullish(v.string()) });
const WbRow = v.object({
  indicator: v.object({ id: v.string(), value: v.string() }),
  country: v.object({ id: v.string(), value: v.string() }),
  countryiso3code: v.string(),
  date: v.string(),
  value: v.nullable(v.number()),
  unit: v.string(),
  obs_status: v.string(),
});
/** What the code reads of the World Bank's answer: a page and its rows, or a message refusing the query. */
const WbAnswer = v.union([
  v.tuple([WbPage, v.nullable(v.array(WbRow))]),
  v.tuple([v.object({ message: v.array(v.object({ id: v.string(), key: v.string(), value: v.string() })) })]),
]);

/** World Bank message ids: 120 an invalid parameter value (country), 175 an unknown indicator. */
const unknownIndicator = "175";

export default defineEndpoint({
  name: "worldbank",
  method: "GET",
  price: "$0.01",
  summary: "World Bank indicators (GDP, population, inflation, ...) for one or more countries over a range of years",
  description:
    "From the World Bank Indicators API (CC BY 4.0). Give an indicator code (NY.GDP.MKTP.CD GDP in current US$, SP.POP.TOTL population, " +
    "FP.CPI.TOTL.ZG inflation, ...) and countries (ISO 2 or 3 letters, or region codes such as EUU, WLD). Newest years first; value null " +
    "where the year has no data. An unknown indicator is a 404.",
  input: v.object({
    indicator: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9]+(\.[A-Za-z0-9]+){1,6}$/, "not a World Bank indicator code"),
      v.description("Indicator code, e.g. NY.GDP.MKTP.CD"),
    ),
    country: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9]{2,3}(,[A-Za-z0-9]{2,3}){0,19}$/, "ISO codes separated by commas"),
        v.description("Countries or regions, e.g. US or DE,FR,ES"),
      ),
      "WLD",
    ),
    from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1960), v.maxValue(2100), v.description("First year"))),
    to: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1960), v.maxValue(2100), v.description("Last year"))),
    recent: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(60),
        v.description("The most recent N years per country (when from/to are not given)"),
      ),
      10,
    ),
  }),
  output: v.object({
    indicator: v.object({ id: v.string(), name: v.string() }),
    updated: v.pipe(v.nullable(v.string()), v.description("Last update of the indicator, YYYY-MM-DD")),
    total: v.number(),
    observations: v.array(
      v.object({
        country: v.pipe(v.string(), v.description("ISO 3166 alpha-3, or the World Bank's region code")),
        countryName: v.string(),
        year: v.string(),
        value: v.nullable(v.number()),
        unit: v.string(),
        status: v.nullable(v.string()),
      }),
    ),
    url: v.pipe(v.string(), v.description("The indicator on data.worldbank.org")),
  }),
  example: {
    input: { indicator: "NY.GDP.MKTP.CD", country: "US", recent: 2 },
    output: {
      indicator: { id: "NY.GDP.MKTP.CD", name: "GDP (current US$)" },
      updated: "2025-01-28",
      total: 2,
      observations: [
        { country: "USA", countryName: "United States", year: "2023", value: 27360935000000, unit: "", status: null },
        { country: "USA", countryName: "United States", year: "2022", value: 25744108000000, unit: "", status: null },
      ],
      url: "https://data.worldbank.org/indicator/NY.GDP.MKTP.CD?locations=US",
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["worldbank"],
  async handler({ input, upstream }) {
    if (input.from && input.to && input.from > input.to) {
      throw badRequest("from is after to", { issues: [{ field: "from", message: "must not be after to" }] });
    }
    const range =
      input.from || input.to ? { date: `${input.from ?? 1960}:${input.to ?? 2100}` } : { mrv: input.recent };
    const countries = input.country.toUpperCase().split(",");
    const answer = await upstream("worldbank").json(
      `/country/${countries.join(";")}/indicator/${input.indicator}`,
      WbAnswer,
      {
        query: { format: "json", per_page: 2000, ...range },
      },
    );
    const head = answer[0];
    if ("message" in head) {
      const message = head.message[0];
      if (message?.id === unknownIndicator) throw notFound(`The World Bank has no indicator ${input.indicator}`);
      throw badRequest(`The World Bank refused the query: ${message?.value ?? "invalid parameter"}`);
    }
    const rows = answer[1] ?? [];
    if (!rows.length) throw notFound(`No ${input.indicator} data for ${input.country} in that range`);
    return {
      indicator: { id: rows[0].indicator.id, name: rows[0].indicator.value },
      updated: head.lastupdated ?? null,
      total: rows.length,
      observations: rows.map((r) => ({
        country: r.countryiso3code || r.country.id,
        countryName: r.country.value,
        year: r.date,
        value: r.value,
        unit: r.unit,
        status: r.obs_status || null,
      })),
      url: `https://data.worldbank.org/indicator/${input.indicator}?locations=${countries.join("-")}`,
    };
  },
});
