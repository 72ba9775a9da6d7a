import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** What the code reads of a ROR v2 organization, a search and an affiliation match. */
const RorOrganization = v.object({
  id: v.string(),
  names: v.array(v.object({ value: v.string(), types: v.array(v.string()), lang: v.nullable(v.string()) })),
  types: v.array(v.string()),
  status: v.string(),
  established: v.nullable(v.number()),
  locations: v.array(
    v.object({
      geonames_details: v.object({
        name: v.string(),
        country_code: v.string(),
        country_name: v.string(),
        lat: v.number(),
        lng: v.number(),
      }),
    }),
  ),
  links: v.array(v.object({ type: v.string(), value: v.string() })),
  external_ids: v.array(v.object({ type: v.string(), all: v.array(v.string()) })),
  relationships: v.array(v.object({ label: v.string(), type: v.string(), id: v.string() })),
  domains: v.optional(v.array(v.string())),
});
type RorOrganization = v.InferOutput<typeof RorOrganization>;
const RorSearch = v.object({ number_of_results: v.number(), items: v.array(RorOrganization) });
const RorAffiliation = v.object({
  number_of_results: v.number(),
  items: v.array(v.object({ score: v.number(), chosen: v.boolean(), organization: RorOrganization })),
});

const Organization = v.object({
  id: v.pipe(v.string(), v.description("ROR id, e.g. 052gg0110")),
  url: v.pipe(v.string(), v.description("The ROR record")),
  title: v.pipe(v.string(), v.description("Display name")),
  acronyms: v.array(v.string()),
  aliases: v.array(v.string()),
  labels: v.pipe(
    v.array(v.object({ name: v.string(), lang: v.nullable(v.string()) })),
    v.description("Names in other languages"),
  ),
  types: v.pipe(
    v.array(v.string()),
    v.description("education, funder, healthcare, company, archive, nonprofit, government, facility, other"),
  ),
  status: v.pipe(v.string(), v.description("active, inactive or withdrawn")),
  established: v.nullable(v.number()),
  country: v.nullable(v.object({ code: v.string(), name: v.string() })),
  city: v.nullable(v.string()),
  lat: v.nullable(v.number()),
  lon: v.nullable(v.number()),
  website: v.nullable(v.string()),
  wikipedia: v.nullable(v.string()),
  domains: v.array(v.string()),
  externalIds: v.pipe(
    v.record(v.string(), v.array(v.string())),
    v.description("By scheme: grid, isni, fundref, wikidata"),
  ),
  relationships: v.array(
    v.object({
      type: v.pipe(v.string(), v.description("parent, child, related, predecessor, successor")),
      id: v.string(),
      title: v.string(),
    }),
  ),
  score: v.pipe(v.nullable(v.number()), v.description("Affiliation matching only: ROR's confidence, 0-1")),
  chosen: v.pipe(v.nullable(v.boolean()), v.description("Affiliation matching only: ROR would pick this match")),
});

const shortId = (url: string) => url.replace(/^https?:\/\/ror\.org\//, "");

export default defineEndpoint({
  name: "ror",
  method: "GET",
  price: "$0.005",
  summary:
    "Research Organization Registry: universities, funders and institutes by ROR id, name search or affiliation matching",
  description:
    "From ROR v2 (CC0; needs UPSTREAM_ROR_KEY, a free client ID). Give `id` for one organization (404 when unknown), `q` to search names " +
    "and acronyms, or `affiliation` to match a free-text affiliation string (each match with ROR's score; `chosen` marks a confident one). " +
    "A search with no match answers an empty list.",
  input: v.object({
    id: v.optional(
      v.pipe(v.string(), v.regex(/^0[a-z0-9]{6}[0-9]{2}$/, "not a ROR id"), v.description("ROR id, e.g. 052gg0110")),
    ),
    q: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(200), v.description("Name or acronym, e.g. Oxford or MIT")),
    ),
    affiliation: v.optional(
      v.pipe(
        v.string(),
        v.minLength(3),
        v.maxLength(500),
        v.description("Free-text affiliation, e.g. Dept. of Physics, University of Oxford, UK"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("Most organizations returned")),
      5,
    ),
  }),
  oneOf: [["id"], ["q"], ["affiliation"]],
  output: v.object({
    total: v.pipe(v.number(), v.description("Organizations ROR matched")),
    organizations: v.array(Organization),
  }),
  example: {
    input: { id: "052gg0110" },
    output: {
      total: 1,
      organizations: [
        {
          id: "052gg0110",
          url: "https://ror.org/052gg0110",
          title: "University of Oxford",
          acronyms: [],
          aliases: [],
          labels: [
            { name: "Prifysgol Rhydychen", lang: "cy" },
            { name: "Université d'Oxford", lang: "fr" },
          ],
          types: ["education", "funder"],
          status: "active",
          established: 1096,
          country: { code: "GB", name: "United Kingdom" },
          city: "Oxford",
          lat: 51.75222,
          lon: -1.25596,
          website: "http://www.ox.ac.uk/",
          wikipedia: "http://en.wikipedia.org/wiki/University_of_Oxford",
          domains: [],
          externalIds: {
            fundref: ["501100000769"],
            grid: ["grid.4991.5"],
            isni: ["0000 0004 1936 8948"],
            wikidata: ["Q34433"],
          },
          relationships: [{ type: "child", id: "00aps1a34", title: "Oxford University Press" }],
          score: null,
          chosen: null,
        },
      ],
    },
  },
  cacheTtl: 7 * 24 * 3600,
  upstreams: ["ror"],
  async handler({ input, upstream }) {
    const api = upstream("ror");
    if (input.id) {
      const org = await api.json(`/organizations/${input.id}`, RorOrganization, { notFoundAs404: true });
      return { total: 1, organizations: [organizationOf(org)] };
    }
    if (input.affiliation) {
      const matched = await api.json("/organizations", RorAffiliation, { query: { affiliation: input.affiliation } });
      return {
        total: matched.number_of_results,
        organizations: matched.items
          .slice(0, input.limit)
          .map((m) => ({ ...organizationOf(m.organization), score: m.score, chosen: m.chosen })),
      };
    }
    const found = await api.json("/organizations", RorSearch, { query: { query: input.q } });
    return { total: found.number_of_results, organizations: found.items.slice(0, input.limit).map(organizationOf) };
  },
});

function organizationOf(o: RorOrganization) {
  const named = (type: string) => o.names.filter((n) => n.types.includes(type));
  const display = named("ror_display")[0] ?? o.names[0];
  const place = o.locations[0]?.geonames_details;
  const link = (type: string) => o.links.find((l) => l.type === type)?.value ?? null;
  return {
    id: shortId(o.id),
    url: o.id,
    title: display?.value ?? shortId(o.id),
    acronyms: named("acronym").map((n) => n.value),
    aliases: named("alias").map((n) => n.value),
    labels: named("label")
      .filter((n) => n !== display)
      .map((n) => ({ name: n.value, lang: n.lang })),
    types: o.types,
    status: o.status,
    established: o.established,
    country: place ? { code: place.country_code, name: place.country_name } : null,
    city: place?.name ?? null,
    lat: place?.lat ?? null,
    lon: place?.lng ?? null,
    website: link("website"),
    wikipedia: link("wikipedia"),
    domains: o.domains ?? [],
    externalIds: Object.fromEntries(o.external_ids.map((e) => [e.type, e.all])),
    relationships: o.relationships.map((r) => ({ type: r.type, id: shortId(r.id), title: r.label })),
    score: null,
    chosen: null,
  };
}
