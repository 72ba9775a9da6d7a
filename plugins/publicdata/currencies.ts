import currencyCodes from "currency-codes";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";
import { datasetVersion } from "./_pr-datasets.ts";
import { countriesDataset, countryIndex, findCountry } from "./_pr-countries.ts";

const Currency = v.object({
  code: v.pipe(v.string(), v.description("ISO 4217 alphabetic code")),
  number: v.pipe(v.string(), v.description("ISO 4217 numeric code")),
  name: v.string(),
  minorUnits: v.pipe(v.number(), v.description("Digits after the decimal point (0 for JPY, 3 for KWD)")),
  symbol: v.nullable(v.pipe(v.string(), v.description("Local symbol from world-countries, when it has one"))),
  countries: v.pipe(
    v.array(v.string()),
    v.description("Countries and territories ISO 4217 lists as users, by their ISO list names"),
  ),
});

/** Symbols per currency code, from the first country that gives one. */
const symbols = lazy(() => {
  const found = new Map<string, string>();
  for (const c of countryIndex().all)
    for (const [code, { symbol }] of Object.entries(c.currencies))
      if (symbol && !found.has(code)) found.set(code, symbol);
  return found;
});

export default defineEndpoint({
  name: "currencies",
  method: "GET",
  price: "$0.005",
  summary: "ISO 4217 currencies: code, numeric code, name, minor units, symbol and the countries that use them",
  description:
    "The ISO 4217 list from the currency-codes package (its version and the ISO list date are stated in `dataset`), with symbols from world-countries. Filter by `code`, by `country` (ISO code or name) or by a text in the name. Exchange rates are not included: see fx.",
  input: v.object({
    code: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code"),
        v.description("ISO 4217 code, e.g. EUR"),
      ),
    ),
    country: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(80),
        v.description("Currencies of this country: ISO 3166-1 code or name"),
      ),
    ),
    q: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(60), v.description("Text in the currency name, case-insensitive")),
    ),
  }),
  output: v.object({
    count: v.number(),
    currencies: v.array(Currency),
    dataset: v.object({ iso4217: v.string(), listDate: v.string(), symbols: v.string() }),
  }),
  example: {
    input: { code: "CHF" },
    output: {
      count: 1,
      currencies: [
        {
          code: "CHF",
          number: "756",
          name: "Swiss Franc",
          minorUnits: 2,
          symbol: "Fr",
          countries: ["Liechtenstein", "Switzerland"],
        },
      ],
      dataset: { iso4217: "currency-codes@2.2.0", listDate: "2024-06-25", symbols: "world-countries@5.1.0" },
    },
  },
  handler({ input }) {
    let codes: Set<string> | undefined;
    if (input.country !== undefined) {
      const country = findCountry(input.country);
      if (!country) throw notFound(`No country matches ${input.country}`);
      codes = new Set(Object.keys(country.currencies));
    }
    const code = input.code?.toUpperCase();
    const q = input.q?.toLowerCase();
    const known = symbols();
    const currencies = currencyCodes.data
      .filter(
        (c) =>
          (!code || c.code === code) && (!codes || codes.has(c.code)) && (!q || c.currency.toLowerCase().includes(q)),
      )
      .map((c) => ({
        code: c.code,
        number: c.number,
        name: c.currency,
        minorUnits: c.digits,
        symbol: known.get(c.code) ?? null,
        countries: c.countries,
      }));
    if (code && !currencies.length) throw notFound(`${code} is not an ISO 4217 currency`);
    return {
      count: currencies.length,
      currencies,
      dataset: {
        iso4217: datasetVersion("currency-codes"),
        listDate: currencyCodes.publishDate,
        symbols: countriesDataset(),
      },
    };
  },
});
