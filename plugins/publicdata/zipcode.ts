import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { countryCode } from "./_pr-inputs.ts";

/** What the code reads of Zippopotam.us's answer. */
const Answer = v.object({
  "post code": v.string(),
  country: v.string(),
  "country abbreviation": v.string(),
  places: v.array(
    v.object({
      "place name": v.string(),
      longitude: v.string(),
      latitude: v.string(),
      state: v.string(),
      "state abbreviation": v.string(),
    }),
  ),
});

export default defineEndpoint({
  name: "zipcode",
  method: "GET",
  price: "$0.005",
  summary: "Places for a postal code in about 60 countries: place names, state, coordinates",
  description:
    "From Zippopotam.us (GeoNames postal data, CC BY). One code can cover several places; all are listed. An unknown code or an unsupported country is a 404. Coordinates are the places' approximate centres.",
  input: v.object({
    country: countryCode("ISO 3166-1 alpha-2 country code, e.g. US"),
    code: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(10),
      v.regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "must be a postal code (letters, digits, spaces, hyphens)"),
      v.description("Postal code, e.g. 90210 or SW1A"),
    ),
  }),
  output: v.object({
    postalCode: v.string(),
    country: v.string(),
    countryCode: v.string(),
    places: v.array(
      v.object({ name: v.string(), state: v.string(), stateCode: v.string(), lat: v.number(), lon: v.number() }),
    ),
  }),
  example: {
    input: { country: "US", code: "90210" },
    output: {
      postalCode: "90210",
      country: "United States",
      countryCode: "US",
      places: [{ name: "Beverly Hills", state: "California", stateCode: "CA", lat: 34.0901, lon: -118.4065 }],
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["zippopotam"],
  async handler({ input, upstream }) {
    const a = await upstream("zippopotam").json(
      `/${input.country.toLowerCase()}/${encodeURIComponent(input.code.trim())}`,
      Answer,
      { notFoundAs404: true },
    );
    return {
      postalCode: a["post code"],
      country: a.country,
      countryCode: a["country abbreviation"],
      places: a.places.map((p) => ({
        name: p["place name"],
        state: p.state,
        stateCode: p["state abbreviation"],
        lat: Number(p.latitude),
        lon: Number(p.longitude),
      })),
    };
  },
});
