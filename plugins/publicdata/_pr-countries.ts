import Fuse from "fuse.js";
import * as v from "valibot";
import { lazy } from "../../core/shared.ts";
import { datasetVersion, requireDataset } from "./_pr-datasets.ts";

/** The fields of a world-countries record this service uses. */
export interface CountryRecord {
  name: { common: string; official: string; native?: Record<string, { common: string; official: string }> };
  tld: string[];
  cca2: string;
  ccn3: string;
  cca3: string;
  independent: boolean | null;
  unMember: boolean;
  currencies: Record<string, { name: string; symbol?: string }>;
  idd: { root?: string; suffixes?: string[] };
  capital: string[];
  altSpellings: string[];
  region: string;
  subregion: string;
  languages: Record<string, string>;
  latlng: [number, number];
  landlocked: boolean;
  borders: string[];
  area: number;
  flag: string;
}

export const countriesDataset = () => datasetVersion("world-countries");

/** world-countries (mledoze/countries), indexed by code and by every spelling of the name, loaded on first use. */
export const countryIndex = lazy(() => {
  const all = requireDataset<CountryRecord[]>("world-countries")
    .slice()
    .sort((a, b) => a.name.common.localeCompare(b.name.common));
  const byCode = new Map<string, CountryRecord>();
  const byName = new Map<string, CountryRecord>();
  for (const c of all) {
    for (const code of [c.cca2, c.cca3, c.ccn3]) if (code) byCode.set(code.toUpperCase(), c);
    const names = [
      c.name.common,
      c.name.official,
      ...c.altSpellings,
      ...Object.values(c.name.native ?? {}).flatMap((n) => [n.common, n.official]),
    ];
    for (const name of names) if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), c);
  }
  const fuzzy = new Fuse(all, {
    keys: ["name.common", "name.official", "altSpellings"],
    threshold: 0.3,
    ignoreLocation: true,
  });
  return { all, byCode, byName, fuzzy };
});

/** A country by ISO code (alpha-2, alpha-3 or numeric) or by a name, exact first, then fuzzy. */
export function findCountry(query: string): CountryRecord | undefined {
  const { byCode, byName, fuzzy } = countryIndex();
  const q = query.trim();
  return byCode.get(q.toUpperCase()) ?? byName.get(q.toLowerCase()) ?? fuzzy.search(q, { limit: 1 })[0]?.item;
}

export const callingCodes = (c: CountryRecord) => {
  const { root, suffixes = [] } = c.idd;
  if (!root) return [];
  return suffixes.length ? suffixes.map((s) => root + s) : [root];
};

export const CountrySummary = v.object({
  cca2: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2")),
  cca3: v.pipe(v.string(), v.description("ISO 3166-1 alpha-3")),
  name: v.string(),
  officialName: v.string(),
  capital: v.array(v.string()),
  region: v.string(),
  subregion: v.string(),
  flag: v.pipe(v.string(), v.description("Flag emoji")),
});

export const summarize = (c: CountryRecord) => ({
  cca2: c.cca2,
  cca3: c.cca3,
  name: c.name.common,
  officialName: c.name.official,
  capital: c.capital,
  region: c.region,
  subregion: c.subregion,
  flag: c.flag,
});
