import { defineUpstreams } from "../../core/endpoint.ts";
import { chainUpstreams } from "../_shared/chains.ts";
import { sharedUpstreams } from "../_shared/upstreams.ts";

// The sanctions lists are bulk files (tens of MB), fetched by a background job every 6 hours, not per call.
const bulk = { maxBytes: 150_000_000, timeoutMs: 120_000, maxRedirections: 3 };

export const complianceUpstreams = defineUpstreams({
  "ofac-sdn": {
    commercialUse: "public domain",
    rateLimit: "a static file",
    url: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports",
    terms:
      "US Treasury OFAC SDN list (SDN.XML, public domain, keyless); redirects to a signed download; about 30 MB, updated as designations change",
    ...bulk,
  },
  "eu-fsf": {
    commercialUse: "reuse with attribution",
    rateLimit: "a static file",
    url: "https://webgate.ec.europa.eu/fsd/fsf/public/files",
    terms:
      "EU Financial Sanctions Files, consolidated list XML 1.1 (public; the token in the path is the published public one); reuse allowed with attribution to the European Commission",
    ...bulk,
  },
  "un-sc": {
    commercialUse: "public",
    rateLimit: "a static file",
    url: "https://scsanctions.un.org/resources/xml/en",
    terms: "UN Security Council Consolidated List XML, public, keyless; a few MB",
    ...bulk,
  },
  "uk-sanctions": {
    commercialUse: "Open Government Licence v3.0",
    rateLimit: "a static file",
    url: "https://sanctionslist.fcdo.gov.uk/docs",
    terms:
      "UK Sanctions List (FCDO) XML, Open Government Licence v3.0; the sole UK list since OFSI's consolidated list closed on 28 January 2026",
    ...bulk,
  },
  vies: {
    commercialUse: "EU public service",
    rateLimit: "member states cap concurrent requests",
    url: "https://ec.europa.eu/taxation_customs/vies/rest-api",
    terms:
      "EU VIES VAT validation REST API, keyless; member states limit concurrent requests (MS_MAX_CONCURRENT_REQ) and go offline for maintenance",
  },
  "tor-exit-list": {
    commercialUse: "public",
    rateLimit: "fetched at most hourly",
    url: "https://check.torproject.org",
    terms:
      "Tor Project's bulk exit list (/torbulkexitlist), public, one IPv4 address per line; refreshed about hourly; cached here for an hour",
  },
  gleif: {
    commercialUse: "CC0",
    rateLimit: "60/min",
    url: "https://api.gleif.org/api/v1",
    terms: "GLEIF LEI API, keyless, CC0 data; 60 requests per minute per user",
  },
  goplus: sharedUpstreams.goplus,
  "iana-rdap": sharedUpstreams["iana-rdap"],
  ...chainUpstreams,
});
