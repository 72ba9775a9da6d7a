import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";

/** What the code reads of RxNav's answers: the ids for a name, a concept's properties, its related concepts by term type. */
const Concept = v.object({ rxcui: v.string(), name: v.string(), tty: v.string() });
const Ids = v.object({ idGroup: v.object({ rxnormId: v.optional(v.array(v.string())) }) });
const Related = v.object({
  relatedGroup: v.object({
    conceptGroup: v.optional(v.array(v.object({ tty: v.string(), conceptProperties: v.optional(v.array(Concept)) }))),
  }),
});

const Concepts = v.array(v.object({ rxcui: v.string(), name: v.string() }));
const cap = 50;

export default defineEndpoint({
  name: "rxnorm",
  method: "GET",
  price: "$0.005",
  summary: "Normalize a drug name with RxNorm: RxCUI, term type, ingredients, brands and clinical drug forms",
  description:
    "From NLM RxNav (RxNorm). The name is matched exactly or after normalization (case, spacing, salt forms). Related concepts are capped at " +
    "50 per kind. A name RxNorm does not know is a 404 (try rxterms for partial names).",
  input: v.object({
    name: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(100),
      v.regex(/^[A-Za-z0-9 .,'/%()-]+$/, "not a drug name"),
      v.description("Drug name, e.g. aspirin, Lipitor, atorvastatin 20 mg"),
    ),
  }),
  output: v.object({
    rxcui: v.string(),
    name: v.string(),
    termType: v.pipe(
      v.string(),
      v.description("RxNorm term type: IN ingredient, BN brand, SCD clinical drug, SBD branded drug, ..."),
    ),
    ingredients: Concepts,
    brands: Concepts,
    clinicalDrugs: Concepts,
    brandedDrugs: Concepts,
    url: v.string(),
  }),
  example: {
    input: { name: "Lipitor" },
    output: {
      rxcui: "153165",
      name: "Lipitor",
      termType: "BN",
      ingredients: [{ rxcui: "83367", name: "atorvastatin" }],
      brands: [{ rxcui: "153165", name: "Lipitor" }],
      clinicalDrugs: [],
      brandedDrugs: [
        { rxcui: "617310", name: "atorvastatin 20 MG Oral Tablet [Lipitor]" },
        { rxcui: "617318", name: "atorvastatin 40 MG Oral Tablet [Lipitor]" },
      ],
      url: "https://mor.nlm.nih.gov/RxNav/search?searchBy=RXCUI&searchTerm=153165",
    },
  },
  cacheTtl: 7 * 86_400,
  upstreams: ["rxnav"],
  async handler({ input, upstream }) {
    const api = upstream("rxnav");
    const ids = await api.json("/rxcui.json", Ids, { query: { name: input.name, search: 2 } });
    const rxcui = ids.idGroup.rxnormId?.[0];
    if (!rxcui) throw notFound(`RxNorm has no concept named ${input.name}`);
    const [props, related] = await Promise.all([
      api.json(`/rxcui/${rxcui}/properties.json`, v.object({ properties: Concept })),
      api.json(`/rxcui/${rxcui}/related.json`, Related, { query: { tty: "IN BN SCD SBD" } }),
    ]);
    const groups = related.relatedGroup.conceptGroup ?? [];
    const of = (tty: string) =>
      (groups.find((g) => g.tty === tty)?.conceptProperties ?? [])
        .slice(0, cap)
        .map((c) => ({ rxcui: c.rxcui, name: c.name }));
    return {
      rxcui,
      name: props.properties.name,
      termType: props.properties.tty,
      ingredients: of("IN"),
      brands: of("BN"),
      clinicalDrugs: of("SCD"),
      brandedDrugs: of("SBD"),
      url: `https://mor.nlm.nih.gov/RxNav/search?searchBy=RXCUI&searchTerm=${rxcui}`,
    };
  },
});
