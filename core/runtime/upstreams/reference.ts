import type { UpstreamTable } from "../upstreams.ts";

/** Places, time, weather, culture and reference (issue 8). Open-Meteo's keyless hosts are for non-commercial use only. */
export const reference = {
  "open-meteo": {
    url: "https://api.open-meteo.com",
    terms: "Open-Meteo forecast and elevation, CC BY 4.0; keyless tier non-commercial only (600/min, 10,000/day): set UPSTREAM_OPEN_METEO_URL=https://customer-api.open-meteo.com and the key, or a self-hosted server",
    key: { env: "UPSTREAM_OPEN_METEO_KEY", query: "apikey", optional: true },
  },
  "open-meteo-marine": {
    url: "https://marine-api.open-meteo.com",
    terms: "Open-Meteo marine, CC BY 4.0; keyless tier non-commercial only: point UPSTREAM_OPEN_METEO_MARINE_URL at customer-marine-api.open-meteo.com with a key, or self-host",
    key: { env: "UPSTREAM_OPEN_METEO_MARINE_KEY", query: "apikey", optional: true },
  },
  "open-meteo-air-quality": {
    url: "https://air-quality-api.open-meteo.com",
    terms: "Open-Meteo air quality (CAMS model), CC BY 4.0; keyless tier non-commercial only: point UPSTREAM_OPEN_METEO_AIR_QUALITY_URL at customer-air-quality-api.open-meteo.com with a key, or self-host",
    key: { env: "UPSTREAM_OPEN_METEO_AIR_QUALITY_KEY", query: "apikey", optional: true },
  },
  "nager-date": { url: "https://date.nager.at/api/v3", terms: "Nager.Date public holidays, MIT-licensed open data; keyless, fair use" },
  "free-dictionary": { url: "https://api.dictionaryapi.dev/api/v2", terms: "Free Dictionary API (Wiktionary data, CC BY-SA); keyless, run on donations: cache" },
  "open-library": { url: "https://openlibrary.org", terms: "Open Library (Internet Archive), data CC0; keyless, send a User-Agent, fair use" },
  tvmaze: { url: "https://api.tvmaze.com", terms: "TVmaze API, CC BY-SA: attribute TVmaze; keyless, about 20 calls per 10 s per IP" },
  zippopotam: { url: "https://api.zippopotam.us", terms: "Zippopotam.us, GeoNames-derived (CC BY); community-run, keyless: cache" },
  wikidata: { url: "https://www.wikidata.org", terms: "Wikidata, CC0; Wikimedia User-Agent policy and rate limits apply" },
  gdelt: { url: "https://api.gdeltproject.org/api/v2", terms: "GDELT DOC 2.0 API, free and open with attribution; undocumented throttling (space calls about 5 s apart)" },
  itunes: { url: "https://itunes.apple.com", terms: "Apple iTunes Search API: keyless, about 20 calls per minute; data for promoting the linked store items only: link back with the store URLs" },
  "noaa-coops": {
    url: "https://api.tidesandcurrents.noaa.gov",
    terms: "NOAA CO-OPS data and metadata APIs (tides and currents), US government public domain; keyless; US coasts and territories only; high/low predictions up to 1 year per request",
  },
  cheapshark: { url: "https://www.cheapshark.com/api/1.0", terms: "CheapShark API (PC game store prices, USD): keyless, fair use with rate limiting by IP; link deals through its redirect URL and credit CheapShark" },
  "usgs-water": {
    url: "https://waterservices.usgs.gov",
    terms: "USGS Water Services (NWIS instantaneous values), US public domain; keyless, no published limit (be polite, cache 15 min); recent data are provisional; USGS is moving these services to api.waterdata.usgs.gov (OGC API)",
  },
  "open-charge-map": {
    url: "https://api.openchargemap.io",
    terms: "Open Charge Map: contributor data CC BY-SA 4.0, imported data under each provider's licence; attribute Open Charge Map; free API key required; at most 250 results per call, no crawling",
    key: { env: "UPSTREAM_OPEN_CHARGE_MAP_KEY", header: "X-API-Key" },
  },
} satisfies UpstreamTable;
