import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, notFound } from "../../core/runtime/errors.ts";
import { Entity, keyFacts, Labels, linkedIds } from "./_pr-wikidata.ts";

const api = "/w/api.php";

export default defineEndpoint({
  name: "wikidata",
  method: "GET",
  price: "$0.005",
  summary:
    "A Wikidata item by id or search: label, description, aliases, key facts (type, country, dates, website...), Wikipedia link",
  description:
    "From the Wikidata API (CC0). Give `id` (Q42) or `q` (the best search match is used). `facts` holds a curated set of properties (instance of, country, coordinates, population, dates of birth and death, founders, official website...) with item values shown by their English label. Dates keep the precision Wikidata records (a year, a month or a day).",
  input: v.object({
    id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[Qq][1-9]\d{0,11}$/, "must be an item id such as Q42"),
        v.description("Wikidata item id, e.g. Q42"),
      ),
    ),
    q: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(200), v.description("Search text; the best match is returned")),
    ),
  }),
  output: v.object({
    id: v.string(),
    label: v.nullable(v.string()),
    description: v.nullable(v.string()),
    aliases: v.array(v.string()),
    facts: v.array(
      v.object({
        property: v.pipe(v.string(), v.description("Property id, e.g. P31")),
        label: v.string(),
        values: v.array(
          v.object({
            value: v.string(),
            id: v.nullable(v.pipe(v.string(), v.description("Item id when the value is an item"))),
          }),
        ),
      }),
    ),
    wikipedia: v.nullable(v.pipe(v.string(), v.description("English Wikipedia article URL"))),
    url: v.string(),
    modified: v.nullable(v.string()),
  }),
  example: {
    input: { id: "Q42" },
    output: {
      id: "Q42",
      label: "Douglas Adams",
      description: "English science fiction writer and humorist (1952–2001)",
      aliases: ["Douglas Noël Adams", "Douglas Noel Adams"],
      facts: [
        { property: "P31", label: "instance of", values: [{ value: "human", id: "Q5" }] },
        { property: "P27", label: "citizenship", values: [{ value: "United Kingdom", id: "Q145" }] },
        {
          property: "P106",
          label: "occupation",
          values: [
            { value: "novelist", id: "Q6625963" },
            { value: "screenwriter", id: "Q28389" },
          ],
        },
        { property: "P569", label: "date of birth", values: [{ value: "1952-03-11", id: null }] },
        { property: "P570", label: "date of death", values: [{ value: "2001-05-11", id: null }] },
        { property: "P856", label: "official website", values: [{ value: "https://douglasadams.com/", id: null }] },
      ],
      wikipedia: "https://en.wikipedia.org/wiki/Douglas_Adams",
      url: "https://www.wikidata.org/wiki/Q42",
      modified: "2025-01-10T08:21:43Z",
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["wikidata"],
  async handler({ input, upstream }) {
    if ((input.id === undefined) === (input.q === undefined)) throw fieldError("id", "give either id or q");
    const wikidata = upstream("wikidata");
    let id = input.id?.toUpperCase();
    if (id === undefined) {
      const found = await wikidata.json(api, v.object({ search: v.array(v.object({ id: v.string() })) }), {
        query: { action: "wbsearchentities", search: input.q, language: "en", type: "item", limit: 1, format: "json" },
      });
      if (!found.search.length) throw notFound(`No Wikidata item matches ${input.q}`);
      id = found.search[0].id;
    }
    const { entities } = await wikidata.json(api, v.object({ entities: v.record(v.string(), Entity) }), {
      query: {
        action: "wbgetentities",
        ids: id,
        props: "labels|descriptions|aliases|claims|sitelinks/urls",
        languages: "en",
        sitefilter: "enwiki",
        format: "json",
      },
    });
    const entity = entities[id];
    if (!entity || entity.missing !== undefined) throw notFound(`Wikidata has no item ${id}`);
    const linked = linkedIds(entity).slice(0, 50);
    const labels = new Map<string, string>();
    if (linked.length) {
      const named = await wikidata.json(api, Labels, {
        query: { action: "wbgetentities", ids: linked.join("|"), props: "labels", languages: "en", format: "json" },
      });
      for (const [key, e] of Object.entries(named.entities)) if (e.labels?.en) labels.set(key, e.labels.en.value);
    }
    return {
      id,
      label: entity.labels?.en?.value ?? null,
      description: entity.descriptions?.en?.value ?? null,
      aliases: (entity.aliases?.en ?? []).map((a) => a.value),
      facts: keyFacts(entity, labels),
      wikipedia: entity.sitelinks?.enwiki?.url ?? null,
      url: `https://www.wikidata.org/wiki/${id}`,
      modified: entity.modified ?? null,
    };
  },
});
