import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { fieldError, notFound } from "../../core/runtime/errors.ts";
import { countryCode, latitude, longitude } from "./_pr-inputs.ts";

const o = <S extends v.GenericSchema>(schema: S) => v.optional(schema);
/** One result of Open-Meteo's geocoding search (GeoNames-based), as the API documents it. */
const GeocodingResult = v.object({
  id: v.number(),
  name: v.string(),
  latitude: v.number(),
  longitude: v.number(),
  elevation: o(v.number()),
  feature_code: o(v.string()),
  country_code: o(v.string()),
  country: o(v.string()),
  admin1: o(v.string()),
  admin2: o(v.string()),
  timezone: o(v.string()),
  population: o(v.number()),
  postcodes: o(v.array(v.string())),
});
type GeocodingResult = v.InferOutput<typeof GeocodingResult>;
/** The search's answer: no `results` at all when nothing matches, but always its `generationtime_ms`. */
const GeocodingAnswer = v.object({ results: v.optional(v.array(GeocodingResult)), generationtime_ms: v.number() });

export const Place = v.object({
  geonameId: v.pipe(v.number(), v.description("GeoNames id: https://www.geonames.org/<id>")),
  name: v.string(),
  lat: v.number(),
  lon: v.number(),
  elevation: v.nullable(v.pipe(v.number(), v.description("Metres above sea level"))),
  featureCode: v.nullable(
    v.pipe(v.string(), v.description("GeoNames feature code: PPLC capital, PPLA region seat, PPL place...")),
  ),
  country: v.nullable(v.string()),
  countryCode: v.nullable(v.string()),
  admin1: v.nullable(v.string()),
  admin2: v.nullable(v.string()),
  zone: v.nullable(v.pipe(v.string(), v.description("IANA time zone"))),
  population: v.nullable(v.number()),
  postcodes: v.array(v.string()),
});

export const toPlace = (r: GeocodingResult) => ({
  geonameId: r.id,
  name: r.name,
  lat: r.latitude,
  lon: r.longitude,
  elevation: r.elevation ?? null,
  featureCode: r.feature_code ?? null,
  country: r.country ?? null,
  countryCode: r.country_code ?? null,
  admin1: r.admin1 ?? null,
  admin2: r.admin2 ?? null,
  zone: r.timezone ?? null,
  population: r.population ?? null,
  postcodes: r.postcodes ?? [],
});

/** Places matching a name, best first; an empty list when nothing matches. */
export async function searchPlaces(
  api: Upstream,
  query: { name: string; country?: string; count: number; language?: string },
) {
  const answer = await api.json("/v1/search", GeocodingAnswer, {
    query: {
      name: query.name,
      count: query.count,
      language: query.language ?? "en",
      countryCode: query.country?.toUpperCase(),
      format: "json",
    },
  });
  return (answer.results ?? []).map(toPlace);
}

/** Inputs of every weather-type endpoint: a point, or a place name resolved once through the geocoder. */
export const placeEntries = {
  lat: v.optional(latitude()),
  lon: v.optional(longitude()),
  place: v.optional(
    v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(100),
      v.description("Place name, resolved to its best match by the geocoder when lat and lon are not given"),
    ),
  ),
  country: v.optional(countryCode("Narrows the place search to this country")),
};

export const Location = v.object({
  lat: v.number(),
  lon: v.number(),
  name: v.nullable(v.pipe(v.string(), v.description("The place the name resolved to; null for coordinates"))),
  countryCode: v.nullable(v.string()),
  resolvedFrom: v.picklist(["coordinates", "geocode"]),
});

export type Location = v.InferOutput<typeof Location>;

/** The point a weather-type call is about: the coordinates given, or the geocoder's best match for `place`. */
export async function resolveLocation(
  api: () => Upstream,
  input: { lat?: number; lon?: number; place?: string; country?: string },
): Promise<Location> {
  const hasPoint = input.lat !== undefined || input.lon !== undefined;
  if (hasPoint && (input.lat === undefined || input.lon === undefined))
    throw fieldError(input.lat === undefined ? "lat" : "lon", "give both lat and lon");
  if (hasPoint === (input.place !== undefined)) throw fieldError("place", "give either lat and lon, or place");
  if (hasPoint) return { lat: input.lat!, lon: input.lon!, name: null, countryCode: null, resolvedFrom: "coordinates" };
  const [best] = await searchPlaces(api(), { name: input.place!, country: input.country, count: 1 });
  if (!best) throw notFound(`No place matches ${input.place}`);
  return { lat: best.lat, lon: best.lon, name: best.name, countryCode: best.countryCode, resolvedFrom: "geocode" };
}
