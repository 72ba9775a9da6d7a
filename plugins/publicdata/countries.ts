import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { countriesDataset, countryIndex, CountrySummary, summarize } from "./_pr-countries.ts";

const regions = ["Africa", "Americas", "Antarctic", "Asia", "Europe", "Oceania"] as const;

export default defineEndpoint({
  name: "countries",
  method: "GET",
  price: "$0.005",
  summary: "List countries, filtered by region, subregion, currency, language or independence",
  description:
    "From the world-countries dataset (mledoze/countries, ODbL) bundled with the service, sorted by common name; its version is stated in `dataset`. Filters combine (all must match). Use `country` for every field of one country.",
  input: v.object({
    region: v.optional(v.pipe(v.picklist(regions), v.description("Continent-level region"))),
    subregion: v.optional(
      v.pipe(v.string(), v.maxLength(60), v.description("Subregion, e.g. Western Europe (case-insensitive)")),
    ),
    currency: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code"),
        v.description("ISO 4217 currency code, e.g. EUR"),
      ),
    ),
    language: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(40),
        v.description("Language name or ISO 639-3 code, e.g. Spanish or spa"),
      ),
    ),
    independent: v.optional(
      v.pipe(v.boolean(), v.description("Only sovereign states (true) or only dependent territories (false)")),
    ),
  }),
  output: v.object({ count: v.number(), countries: v.array(CountrySummary), dataset: v.string() }),
  example: {
    input: { region: "Europe", currency: "CHF" },
    output: {
      count: 2,
      countries: [
        {
          cca2: "LI",
          cca3: "LIE",
          name: "Liechtenstein",
          officialName: "Principality of Liechtenstein",
          capital: ["Vaduz"],
          region: "Europe",
          subregion: "Western Europe",
          flag: "🇱🇮",
        },
        {
          cca2: "CH",
          cca3: "CHE",
          name: "Switzerland",
          officialName: "Swiss Confederation",
          capital: ["Bern"],
          region: "Europe",
          subregion: "Western Europe",
          flag: "🇨🇭",
        },
      ],
      dataset: "world-countries@5.1.0",
    },
  },
  handler({ input }) {
    const subregion = input.subregion?.toLowerCase();
    const currency = input.currency?.toUpperCase();
    const language = input.language?.toLowerCase();
    const countries = countryIndex().all.filter(
      (c) =>
        (!input.region || c.region === input.region) &&
        (!subregion || c.subregion.toLowerCase() === subregion) &&
        (!currency || currency in c.currencies) &&
        (!language ||
          Object.entries(c.languages).some(([code, name]) => code === language || name.toLowerCase() === language)) &&
        (input.independent === undefined || c.independent === input.independent),
    );
    return { count: countries.length, countries: countries.map(summarize), dataset: countriesDataset() };
  },
});
