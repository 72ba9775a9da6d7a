import { defineUpstreams } from "../../core/endpoint.ts";
import { webUpstreams } from "../web/_upstreams.ts";

export const publicdataUpstreams = defineUpstreams({
  espn: {
    url: "https://site.api.espn.com/apis/site/v2/sports",
    terms: "Unofficial ESPN API; may change without notice",
  },
  usgs: { url: "https://earthquake.usgs.gov", terms: "USGS, public domain; prefer the summary feeds" },
  "open-meteo-archive": {
    url: "https://archive-api.open-meteo.com",
    terms:
      "Open-Meteo, CC BY 4.0; keyless tier is non-commercial only: a paid key (customer-archive-api host) is needed here",
    key: { env: "UPSTREAM_OPEN_METEO_ARCHIVE_KEY", query: "apikey", optional: true },
  },
  "open-meteo-geocoding": {
    url: "https://geocoding-api.open-meteo.com",
    terms: "Open-Meteo, CC BY 4.0; keyless tier is non-commercial only",
    key: { env: "UPSTREAM_OPEN_METEO_GEOCODING_KEY", query: "apikey", optional: true },
  },
  clinicaltrials: {
    url: "https://clinicaltrials.gov/api/v2",
    terms: "ClinicalTrials.gov, US NLM public data; limits unpublished",
  },
  openfda: {
    url: "https://api.fda.gov",
    terms: "openFDA, public domain (CC0); keyless 240/min and 1,000/day per IP, 120,000/day with a key",
    key: { env: "UPSTREAM_OPENFDA_KEY", query: "api_key", optional: true },
  },
  treasury: {
    url: "https://api.fiscaldata.treasury.gov/services/api/fiscal_service",
    terms: "US Treasury Fiscal Data, public domain",
  },
  worldbank: { url: "https://api.worldbank.org/v2", terms: "World Bank open data, CC BY 4.0" },
  eurostat: {
    url: "https://ec.europa.eu/eurostat/api/dissemination/statistics/1.0",
    terms: "Eurostat, reuse allowed with attribution",
  },
  ine: { url: "https://servicios.ine.es/wstempus/js", terms: "INE Spain, reuse allowed with attribution; slow" },
  census: {
    url: "https://api.census.gov/data",
    terms: "US Census Bureau, public domain; about 500 queries/day per IP keyless (unverified)",
    key: { env: "UPSTREAM_CENSUS_KEY", query: "key", optional: true },
  },
  nass: {
    url: "https://quickstats.nass.usda.gov/api",
    terms: "USDA NASS Quick Stats, public domain; free key required; 50,000 rows per query",
    key: { env: "UPSTREAM_NASS_KEY", query: "key" },
  },
  eia: {
    url: "https://api.eia.gov/v2",
    terms: "US EIA, public domain; free key required; 5,000 rows per page",
    key: { env: "UPSTREAM_EIA_KEY", query: "api_key" },
  },
  "energy-charts": { url: "https://api.energy-charts.info", terms: "Fraunhofer ISE Energy-Charts, CC BY 4.0" },
  "nih-reporter": { url: "https://api.reporter.nih.gov/v2", terms: "NIH RePORTER, public data; about 1 req/s" },
  usaspending: { url: "https://api.usaspending.gov/api/v2", terms: "USAspending.gov, public domain" },
  "cisa-kev": {
    url: "https://www.cisa.gov/sites/default/files/feeds",
    terms: "CISA KEV catalog, public domain; a static file",
  },
  arxiv: { url: "https://export.arxiv.org/api", terms: "arXiv API terms: one request every 3 s, metadata CC0" },
  "semantic-scholar": {
    url: "https://api.semanticscholar.org/graph/v1",
    terms: "Semantic Scholar API licence; shared keyless pool often 429s, 1 req/s with a key",
    key: { env: "UPSTREAM_SEMANTIC_SCHOLAR_KEY", header: "x-api-key", optional: true },
  },
  wikipedia: {
    url: "https://en.wikipedia.org/api/rest_v1",
    terms: "Wikimedia REST API, CC BY-SA; send a descriptive User-Agent",
  },
  uspto: {
    url: "https://api.uspto.gov",
    terms: "USPTO Open Data Portal, public data; key from a USPTO.gov account (MFA) required",
    key: { env: "UPSTREAM_USPTO_KEY", header: "x-api-key" },
  },
  genderize: {
    url: "https://api.genderize.io",
    terms: "Demografix terms; 100 names/day keyless, paid key above",
    key: { env: "UPSTREAM_GENDERIZE_KEY", query: "apikey", optional: true },
  },
  agify: {
    url: "https://api.agify.io",
    terms: "Demografix terms; 100 names/day keyless, paid key above",
    key: { env: "UPSTREAM_AGIFY_KEY", query: "apikey", optional: true },
  },
  nationalize: {
    url: "https://api.nationalize.io",
    terms: "Demografix terms; 100 names/day keyless, paid key above",
    key: { env: "UPSTREAM_NATIONALIZE_KEY", query: "apikey", optional: true },
  },
  openfoodfacts: {
    url: "https://world.openfoodfacts.org",
    terms:
      "Open Food Facts, ODbL (attribution, share-alike); about 15 product reads/min per IP; contributed data may be incomplete",
  },
  nhtsa: { url: "https://api.nhtsa.gov", terms: "NHTSA, US public domain; automatic traffic rate controls" },
  "nhtsa-vpic": {
    url: "https://vpic.nhtsa.dot.gov/api",
    terms: "NHTSA vPIC, US public domain; automatic traffic rate controls",
  },
  "federal-register": {
    url: "https://www.federalregister.gov/api/v1",
    terms: "Federal Register, US public domain; no key",
  },
  pubchem: {
    url: "https://pubchem.ncbi.nlm.nih.gov/rest/pug",
    terms: "NCBI PubChem, public data; at most 5 requests/s and 400/min per IP",
  },
  rxnav: {
    url: "https://rxnav.nlm.nih.gov/REST",
    terms: "NLM RxNav (RxNorm), public data; at most 20 requests/s per IP",
  },
  "nlm-clinical-tables": {
    url: "https://clinicaltables.nlm.nih.gov/api",
    terms: "NLM Clinical Table Search Service (RxTerms), public data",
  },
  ensembl: { url: "https://rest.ensembl.org", terms: "Ensembl REST, open data; 55,000 requests/hour per IP" },
  "rcsb-data": { url: "https://data.rcsb.org/rest/v1", terms: "RCSB PDB Data API, CC0" },
  chembl: {
    url: "https://www.ebi.ac.uk/chembl/api/data",
    terms: "EMBL-EBI ChEMBL, CC BY-SA 3.0; no key; search can take seconds",
  },
  ror: {
    url: "https://api.ror.org/v2",
    terms:
      "Research Organization Registry, CC0; answers without a client ID at 50 requests per 5 min, a free client ID (Client-Id header) raises that to 2,000",
    key: { env: "UPSTREAM_ROR_KEY", header: "Client-Id", optional: true },
  },
  orcid: {
    url: "https://pub.orcid.org/v3.0",
    terms: "ORCID Public API, public records CC0; about 24 requests/s, burst 40",
  },
  doaj: {
    url: "https://doaj.org/api",
    terms: "Directory of Open Access Journals, metadata CC0 (articles CC BY-SA); no key",
  },
  boe: {
    url: "https://www.boe.es/datosabiertos/api",
    terms: "Boletín Oficial del Estado open data, reuse allowed with attribution; no key",
  },
  hipolabs: {
    url: "http://universities.hipolabs.com",
    terms: "Hipo university-domains-list, MIT licence; keyless, HTTP only",
  },
  "carbon-intensity": {
    url: "https://api.carbonintensity.org.uk",
    terms: "NESO Carbon Intensity API, CC BY 4.0; Great Britain only; no key",
  },
  "open-meteo": {
    url: "https://api.open-meteo.com",
    terms:
      "Open-Meteo forecast and elevation, CC BY 4.0; keyless tier non-commercial only (600/min, 10,000/day): set UPSTREAM_OPEN_METEO_URL=https://customer-api.open-meteo.com and the key, or a self-hosted server",
    key: { env: "UPSTREAM_OPEN_METEO_KEY", query: "apikey", optional: true },
  },
  "open-meteo-marine": {
    url: "https://marine-api.open-meteo.com",
    terms:
      "Open-Meteo marine, CC BY 4.0; keyless tier non-commercial only: point UPSTREAM_OPEN_METEO_MARINE_URL at customer-marine-api.open-meteo.com with a key, or self-host",
    key: { env: "UPSTREAM_OPEN_METEO_MARINE_KEY", query: "apikey", optional: true },
  },
  "open-meteo-air-quality": {
    url: "https://air-quality-api.open-meteo.com",
    terms:
      "Open-Meteo air quality (CAMS model), CC BY 4.0; keyless tier non-commercial only: point UPSTREAM_OPEN_METEO_AIR_QUALITY_URL at customer-air-quality-api.open-meteo.com with a key, or self-host",
    key: { env: "UPSTREAM_OPEN_METEO_AIR_QUALITY_KEY", query: "apikey", optional: true },
  },
  "nager-date": {
    url: "https://date.nager.at/api/v3",
    terms: "Nager.Date public holidays, MIT-licensed open data; keyless, fair use",
  },
  "free-dictionary": {
    url: "https://api.dictionaryapi.dev/api/v2",
    terms: "Free Dictionary API (Wiktionary data, CC BY-SA); keyless, run on donations: cache",
  },
  "open-library": {
    url: "https://openlibrary.org",
    terms: "Open Library (Internet Archive), data CC0; keyless, send a User-Agent, fair use",
  },
  tvmaze: {
    url: "https://api.tvmaze.com",
    terms: "TVmaze API, CC BY-SA: attribute TVmaze; keyless, about 20 calls per 10 s per IP",
  },
  zippopotam: {
    url: "https://api.zippopotam.us",
    terms: "Zippopotam.us, GeoNames-derived (CC BY); community-run, keyless: cache",
  },
  wikidata: {
    url: "https://www.wikidata.org",
    terms: "Wikidata, CC0; Wikimedia User-Agent policy and rate limits apply",
  },
  gdelt: {
    url: "https://api.gdeltproject.org/api/v2",
    terms: "GDELT DOC 2.0 API, free and open with attribution; undocumented throttling (space calls about 5 s apart)",
  },
  itunes: {
    url: "https://itunes.apple.com",
    terms:
      "Apple iTunes Search API: keyless, about 20 calls per minute; data for promoting the linked store items only: link back with the store URLs",
  },
  "noaa-coops": {
    url: "https://api.tidesandcurrents.noaa.gov",
    terms:
      "NOAA CO-OPS data and metadata APIs (tides and currents), US government public domain; keyless; US coasts and territories only; high/low predictions up to 1 year per request",
  },
  cheapshark: {
    url: "https://www.cheapshark.com/api/1.0",
    terms:
      "CheapShark API (PC game store prices, USD): keyless, fair use with rate limiting by IP; link deals through its redirect URL and credit CheapShark",
  },
  "usgs-water": {
    url: "https://waterservices.usgs.gov",
    terms:
      "USGS Water Services (NWIS instantaneous values), US public domain; keyless, no published limit (be polite, cache 15 min); recent data are provisional; USGS is moving these services to api.waterdata.usgs.gov (OGC API)",
  },
  "open-charge-map": {
    url: "https://api.openchargemap.io",
    terms:
      "Open Charge Map: contributor data CC BY-SA 4.0, imported data under each provider's licence; attribute Open Charge Map; free API key required; at most 250 results per call, no crawling",
    key: { env: "UPSTREAM_OPEN_CHARGE_MAP_KEY", header: "X-API-Key" },
  },
  "wikipedia-api": webUpstreams["wikipedia-api"],
});
