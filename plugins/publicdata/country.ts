import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { callingCodes, countriesDataset, CountrySummary, findCountry, summarize } from "./_pr-countries.ts";

export default defineEndpoint({
  name: "country",
  method: "GET",
  price: "$0.005",
  summary:
    "Facts about one country by ISO code or name: codes, capital, region, languages, currencies, calling codes, borders",
  description:
    "From the world-countries dataset (mledoze/countries, ODbL) bundled with the service; its version is stated in `dataset`. `country` may be an ISO 3166-1 alpha-2, alpha-3 or numeric code, or a name in English or a native language (exact first, then a close spelling). Population is not included: the dataset does not carry it.",
  input: v.object({
    country: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(80),
      v.description("ISO code (FR, FRA, 250) or name (France, Deutschland)"),
    ),
  }),
  output: v.object({
    ...CountrySummary.entries,
    ccn3: v.pipe(v.string(), v.description("ISO 3166-1 numeric")),
    independent: v.nullable(v.boolean()),
    unMember: v.boolean(),
    languages: v.array(v.object({ code: v.pipe(v.string(), v.description("ISO 639-3")), name: v.string() })),
    currencies: v.array(
      v.object({
        code: v.pipe(v.string(), v.description("ISO 4217")),
        name: v.string(),
        symbol: v.nullable(v.string()),
      }),
    ),
    callingCodes: v.pipe(v.array(v.string()), v.description("International dialling prefixes, e.g. +33")),
    tld: v.array(v.string()),
    latlng: v.pipe(v.array(v.number()), v.description("Approximate centre [lat, lon]")),
    areaKm2: v.number(),
    landlocked: v.boolean(),
    borders: v.pipe(v.array(v.string()), v.description("alpha-3 codes of neighbouring countries")),
    dataset: v.string(),
  }),
  example: {
    input: { country: "FR" },
    output: {
      cca2: "FR",
      cca3: "FRA",
      name: "France",
      officialName: "French Republic",
      capital: ["Paris"],
      region: "Europe",
      subregion: "Western Europe",
      flag: "🇫🇷",
      ccn3: "250",
      independent: true,
      unMember: true,
      languages: [{ code: "fra", name: "French" }],
      currencies: [{ code: "EUR", name: "Euro", symbol: "€" }],
      callingCodes: ["+33"],
      tld: [".fr"],
      latlng: [46, 2],
      areaKm2: 551695,
      landlocked: false,
      borders: ["AND", "BEL", "DEU", "ITA", "LUX", "MCO", "ESP", "CHE"],
      dataset: "world-countries@5.1.0",
    },
  },
  handler({ input }) {
    const c = findCountry(input.country);
    if (!c) throw notFound(`No country matches ${input.country}`);
    return {
      ...summarize(c),
      ccn3: c.ccn3,
      independent: c.independent,
      unMember: c.unMember,
      languages: Object.entries(c.languages).map(([code, name]) => ({ code, name })),
      currencies: Object.entries(c.currencies).map(([code, { name, symbol }]) => ({
        code,
        name,
        symbol: symbol ?? null,
      })),
      callingCodes: callingCodes(c),
      tld: c.tld,
      latlng: c.latlng,
      areaKm2: c.area,
      landlocked: c.landlocked,
      borders: c.borders,
      dataset: countriesDataset(),
    };
  },
});
