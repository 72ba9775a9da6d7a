import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** What the code reads of the Clinical Table Search Service's positional answer: [total, codes, extra fields, display rows]. */
const Lists = v.optional(v.array(v.array(v.string())));
const CtssAnswer = v.tuple([
  v.number(),
  v.array(v.string()),
  v.nullable(v.object({ STRENGTHS_AND_FORMS: Lists, RXCUIS: Lists })),
]);

export default defineEndpoint({
  name: "rxterms",
  method: "GET",
  price: "$0.005",
  summary: "Drug name autocomplete from RxTerms: names with route, their strengths and forms, and RxNorm ids",
  description:
    "From the NLM Clinical Table Search Service (RxTerms). Matches the start of words in drug names (brand and generic), so partial " +
    "names work. Each match lists its strengths and forms with the RxCUI of each; no match is an empty list.",
  input: v.object({
    q: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(80),
      v.regex(/^[A-Za-z0-9 .,'/-]+$/, "not a drug name"),
      v.description("Partial drug name, e.g. lipit or amoxi"),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most drug names")),
      10,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Names matched")),
    drugs: v.array(
      v.object({
        name: v.pipe(v.string(), v.description("Drug name with route, e.g. LIPITOR (Oral Pill)")),
        strengths: v.array(v.object({ strengthAndForm: v.string(), rxcui: v.nullable(v.string()) })),
      }),
    ),
  }),
  example: {
    input: { q: "lipitor", limit: 1 },
    output: {
      total: 1,
      drugs: [
        {
          name: "LIPITOR (Oral Pill)",
          strengths: [
            { strengthAndForm: "10 mg Tab", rxcui: "617320" },
            { strengthAndForm: "20 mg Tab", rxcui: "617314" },
            { strengthAndForm: "40 mg Tab", rxcui: "617318" },
            { strengthAndForm: "80 mg Tab", rxcui: "617312" },
          ],
        },
      ],
    },
  },
  cacheTtl: 7 * 86_400,
  upstreams: ["nlm-clinical-tables"],
  async handler({ input, upstream }) {
    const [total, names, extra] = await upstream("nlm-clinical-tables").json("/rxterms/v3/search", CtssAnswer, {
      query: { terms: input.q, ef: "STRENGTHS_AND_FORMS,RXCUIS", maxList: input.limit },
    });
    return {
      total,
      drugs: names.map((name, i) => {
        const forms = extra?.STRENGTHS_AND_FORMS?.[i] ?? [];
        const ids = extra?.RXCUIS?.[i] ?? [];
        return { name, strengths: forms.map((form, j) => ({ strengthAndForm: form.trim(), rxcui: ids[j] ?? null })) };
      }),
    };
  },
});
