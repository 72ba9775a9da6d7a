import type libphonenumber from "google-libphonenumber";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, notFound } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";
import { datasetVersion, requireDataset } from "./_pr-datasets.ts";
import { findCountry } from "./_pr-countries.ts";

const library = lazy(() => requireDataset<typeof libphonenumber>("google-libphonenumber"));
// getRegionCodesForCountryCode exists in the library but is missing from @types/google-libphonenumber.
const phoneUtil = lazy(
  () =>
    library().PhoneNumberUtil.getInstance() as libphonenumber.PhoneNumberUtil & {
      getRegionCodesForCountryCode(code: number): string[];
    },
);

const Region = v.object({
  country: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2 region code as libphonenumber uses it")),
  name: v.nullable(v.string()),
  callingCode: v.pipe(v.string(), v.description("International prefix, e.g. +44")),
  mainRegionForCode: v.pipe(
    v.boolean(),
    v.description("The region libphonenumber treats as the main one for a shared code"),
  ),
  nationalPrefix: v.nullable(v.pipe(v.string(), v.description("Trunk prefix dialled inside the country, e.g. 0"))),
  exampleNumber: v.nullable(v.pipe(v.string(), v.description("A fixed-line example in international format"))),
});

export default defineEndpoint({
  name: "dial-code",
  method: "GET",
  price: "$0.005",
  summary: "International calling code of a country, or the countries that share a calling code",
  description:
    "Computed locally from Google's libphonenumber metadata (its version is stated in `dataset`). Give `country` (ISO code or name) for its code, or `code` (+44, 44) for every region that uses it: shared codes such as +1 and +7 list many regions.",
  input: v.object({
    country: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(80), v.description("ISO 3166-1 code or country name")),
    ),
    code: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\+?\d{1,3}$/, "must be a calling code such as +44"),
        v.description("Calling code, with or without +"),
      ),
    ),
  }),
  output: v.object({ count: v.number(), regions: v.array(Region), dataset: v.string() }),
  example: {
    input: { code: "+44" },
    output: {
      count: 4,
      regions: [
        {
          country: "GB",
          name: "United Kingdom",
          callingCode: "+44",
          mainRegionForCode: true,
          nationalPrefix: "0",
          exampleNumber: "+44 121 234 5678",
        },
        {
          country: "GG",
          name: "Guernsey",
          callingCode: "+44",
          mainRegionForCode: false,
          nationalPrefix: "0",
          exampleNumber: "+44 1481 256789",
        },
        {
          country: "IM",
          name: "Isle of Man",
          callingCode: "+44",
          mainRegionForCode: false,
          nationalPrefix: "0",
          exampleNumber: "+44 1624 756789",
        },
        {
          country: "JE",
          name: "Jersey",
          callingCode: "+44",
          mainRegionForCode: false,
          nationalPrefix: "0",
          exampleNumber: "+44 1534 456789",
        },
      ],
      dataset: "google-libphonenumber@3.2.47",
    },
  },
  handler({ input }) {
    if ((input.country === undefined) === (input.code === undefined))
      throw fieldError("country", "give either country or code");
    const phones = phoneUtil();
    let regionCodes: string[];
    if (input.code !== undefined) {
      regionCodes = phones.getRegionCodesForCountryCode(Number(input.code.replace("+", "")));
      if (!regionCodes.length) throw notFound(`No region uses the calling code +${input.code.replace("+", "")}`);
    } else {
      const cca2 = input.country!.length === 2 ? input.country!.toUpperCase() : findCountry(input.country!)?.cca2;
      if (!cca2 || !phones.getCountryCodeForRegion(cca2))
        throw notFound(`No calling code is known for ${input.country}`);
      regionCodes = [cca2];
    }
    const regions = regionCodes.map(describe);
    return { count: regions.length, regions, dataset: datasetVersion("google-libphonenumber") };
  },
});

function describe(region: string) {
  const phones = phoneUtil();
  const code = phones.getCountryCodeForRegion(region);
  const example = phones.getExampleNumber(region);
  return {
    country: region,
    name: findCountry(region)?.name.common ?? null,
    callingCode: `+${code}`,
    mainRegionForCode: phones.getRegionCodeForCountryCode(code) === region,
    nationalPrefix: phones.getNddPrefixForRegion(region, true) || null,
    exampleNumber: example ? phones.format(example, library().PhoneNumberFormat.INTERNATIONAL) : null,
  };
}
