import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { Place, searchPlaces } from "./_pr-geocode.ts";
import { countryCode, limit } from "./_pr-inputs.ts";

export default defineEndpoint({
  name: "geocode",
  method: "GET",
  price: "$0.005",
  summary: "Find places by name or postal code: coordinates, country, region, time zone, population",
  description:
    "Forward geocoding through Open-Meteo's geocoding API (GeoNames data, CC BY 4.0), best match first. Names of 3 or more characters match fuzzily; 2 characters match exactly. No match is a 404. Open-Meteo's keyless tier is for non-commercial use; the operator sets a paid or self-hosted base URL and key (UPSTREAM_OPEN_METEO_GEOCODING_URL/_KEY).",
  input: v.object({
    q: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(100),
      v.description("Place name or postal code, e.g. Berlin or 10115"),
    ),
    country: v.optional(countryCode("Only places in this country")),
    language: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z]{2}$/, "must be a two-letter lower-case language code"),
        v.description("Language of the names, e.g. de"),
      ),
      "en",
    ),
    limit: limit(100, 5, "places"),
  }),
  output: v.object({ count: v.number(), places: v.array(Place) }),
  example: {
    input: { q: "Berlin", country: "DE", limit: 1 },
    output: {
      count: 1,
      places: [
        {
          geonameId: 2950159,
          name: "Berlin",
          lat: 52.52437,
          lon: 13.41053,
          elevation: 74,
          featureCode: "PPLC",
          country: "Germany",
          countryCode: "DE",
          admin1: "Land Berlin",
          admin2: null,
          zone: "Europe/Berlin",
          population: 3426354,
          postcodes: ["10967", "13347"],
        },
      ],
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["open-meteo-geocoding"],
  async handler({ input, upstream }) {
    const places = await searchPlaces(upstream("open-meteo-geocoding"), {
      name: input.q,
      country: input.country,
      count: input.limit,
      language: input.language,
    });
    if (!places.length) throw notFound(`No place matches ${input.q}`);
    return { count: places.length, places };
  },
});
