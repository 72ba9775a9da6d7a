import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound, ServiceError } from "../../core/runtime/errors.ts";
import { countryCode } from "./_pr-inputs.ts";
import { localHolidays } from "./_pr-local-holidays.ts";

/** What the code reads of one holiday in Nager.Date's `PublicHolidays` answer. */
const NagerHoliday = v.object({
  date: v.string(),
  localName: v.string(),
  name: v.string(),
  global: v.boolean(),
  counties: v.nullable(v.array(v.string())),
  types: v.array(v.string()),
});

export default defineEndpoint({
  name: "holidays",
  method: "GET",
  price: "$0.005",
  summary: "Public holidays of a country for a year, national and regional, with local names",
  description:
    "From Nager.Date (about 120 countries). When Nager.Date does not cover the country or is down, the answer comes from the date-holidays rules bundled with the service (national public holidays only; `source` says which, with its version). `region` (ISO 3166-2, e.g. DE-BY) keeps national holidays plus that region's. `global: false` marks a regional holiday, its regions listed.",
  input: v.object({
    country: countryCode("ISO 3166-1 alpha-2 country code, e.g. DE"),
    year: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1975),
        v.maxValue(2075),
        v.description("Year, e.g. 2025; defaults to the current year (UTC)"),
      ),
    ),
    region: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/, "must be an ISO 3166-2 code such as DE-BY"),
        v.description("Only national holidays and this region's (ISO 3166-2)"),
      ),
    ),
  }),
  output: v.object({
    country: v.string(),
    year: v.number(),
    count: v.number(),
    holidays: v.array(
      v.object({
        date: v.pipe(v.string(), v.description("YYYY-MM-DD")),
        name: v.pipe(v.string(), v.description("English name")),
        localName: v.string(),
        global: v.pipe(v.boolean(), v.description("Observed in the whole country")),
        regions: v.pipe(v.array(v.string()), v.description("ISO 3166-2 regions of a regional holiday")),
        types: v.pipe(v.array(v.string()), v.description("Public, Bank, School, Authorities, Optional or Observance")),
      }),
    ),
    source: v.pipe(v.string(), v.description("nager-date, or date-holidays@<version> when the local rules answered")),
  }),
  example: {
    input: { country: "AT", year: 2025, region: "AT-9" },
    output: {
      country: "AT",
      year: 2025,
      count: 2,
      holidays: [
        {
          date: "2025-01-01",
          name: "New Year's Day",
          localName: "Neujahr",
          global: true,
          regions: [],
          types: ["Public"],
        },
        {
          date: "2025-11-15",
          name: "Saint Leopold's Day",
          localName: "Leopold",
          global: false,
          regions: ["AT-9"],
          types: ["Public"],
        },
      ],
      source: "nager-date",
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["nager-date"],
  async handler({ input, upstream, log, now }) {
    const year = input.year ?? now().getUTCFullYear();
    const country = input.country.toUpperCase();
    const region = input.region?.toUpperCase();
    let found: {
      holidays: {
        date: string;
        name: string;
        localName: string;
        global: boolean;
        regions: string[];
        types: string[];
      }[];
      source: string;
    };
    try {
      const list = await upstream("nager-date").json(`/PublicHolidays/${year}/${country}`, v.array(NagerHoliday), {
        notFoundAs404: true,
      });
      found = {
        holidays: list.map((h) => ({
          date: h.date,
          name: h.name,
          localName: h.localName,
          global: h.global,
          regions: h.counties ?? [],
          types: h.types,
        })),
        source: "nager-date",
      };
    } catch (error) {
      if (!(error instanceof ServiceError) || (error.status !== 404 && error.status < 500)) throw error;
      const local = await localHolidays(country, year);
      if (!local) throw error.status === 404 ? notFound(`No holiday data for ${country}`) : error;
      log.warn({ country, status: error.status }, "holidays answered from date-holidays");
      found = local;
    }
    const holidays = found.holidays.filter((h) => !region || h.global || h.regions.includes(region));
    return { country, year, count: holidays.length, holidays, source: found.source };
  },
});
