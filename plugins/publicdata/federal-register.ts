import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

const o = v.optional;
/** What the code reads of a Federal Register document (the fields asked for); a search leaves out `results` when nothing matches. */
const FrDocument = v.object({
  document_number: v.string(),
  title: v.string(),
  type: v.string(),
  abstract: v.nullish(v.string()),
  publication_date: v.string(),
  agencies: o(v.array(v.object({ name: o(v.string()), raw_name: o(v.string()), slug: o(v.string()) }))),
  html_url: v.string(),
  pdf_url: v.nullish(v.string()),
});
type FrDocument = v.InferOutput<typeof FrDocument>;
const FrSearch = v.object({ count: v.number(), results: o(v.array(FrDocument)) });

const fields = ["document_number", "title", "type", "abstract", "publication_date", "agencies", "html_url", "pdf_url"];

const Document = v.object({
  id: v.pipe(v.string(), v.description("Federal Register document number")),
  title: v.string(),
  type: v.string(),
  abstract: v.nullable(v.string()),
  publicationDate: v.pipe(v.string(), v.description("YYYY-MM-DD")),
  agencies: v.array(v.object({ name: v.string(), slug: v.nullable(v.string()) })),
  url: v.string(),
  pdfUrl: v.nullable(v.string()),
});

export default defineEndpoint({
  name: "federal-register",
  method: "GET",
  price: "$0.005",
  summary:
    "US Federal Register documents (rules, proposed rules, notices, presidential documents): search or fetch one",
  description:
    "From the Federal Register API (US public domain; published each business day). Newest first. `agency` is the Federal Register " +
    "slug (environmental-protection-agency, securities-and-exchange-commission, ...). `id` fetches one document, a 404 when unknown.",
  input: v.object({
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(200),
        v.regex(/^[A-Za-z0-9À-ÿ .,'&()-]+$/, "letters, digits, spaces and . , ' & ( ) - only"),
        v.description("Words to find"),
      ),
    ),
    type: v.optional(v.pipe(v.picklist(["RULE", "PRORULE", "NOTICE", "PRESDOCU"]), v.description("Document type"))),
    agency: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z0-9]+(-[a-z0-9]+){0,12}$/, "not an agency slug"),
        v.description("Agency slug, e.g. food-and-drug-administration"),
      ),
    ),
    since: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Published on or after, YYYY-MM-DD"))),
    until: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Published on or before, YYYY-MM-DD"))),
    id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Z0-9]{1,4}-?\d{3,6}(-\d+)?$/, "not a document number"),
        v.description("Document number, e.g. 2024-11853"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most documents")),
      20,
    ),
  }),
  output: v.object({ total: v.number(), documents: v.array(Document) }),
  example: {
    input: { id: "2024-07773" },
    output: {
      total: 1,
      documents: [
        {
          id: "2024-07773",
          title: "PFAS National Primary Drinking Water Regulation",
          type: "Rule",
          abstract:
            "The Environmental Protection Agency (EPA) is finalizing a National Primary Drinking Water Regulation (NPDWR) and health-based Maximum Contaminant Level Goals (MCLGs) for six per- and polyfluoroalkyl substances (PFAS).",
          publicationDate: "2024-04-26",
          agencies: [{ name: "Environmental Protection Agency", slug: "environmental-protection-agency" }],
          url: "https://www.federalregister.gov/documents/2024/04/26/2024-07773/pfas-national-primary-drinking-water-regulation",
          pdfUrl: "https://www.govinfo.gov/content/pkg/FR-2024-04-26/pdf/2024-07773.pdf",
        },
      ],
    },
  },
  cacheTtl: 3600,
  upstreams: ["federal-register"],
  async handler({ input, upstream }) {
    const api = upstream("federal-register");
    const params = new URLSearchParams();
    for (const field of fields) params.append("fields[]", field);
    if (input.id) {
      const found = await api.json(`/documents/${input.id}.json?${params}`, FrDocument, { notFoundAs404: true });
      return { total: 1, documents: [documentOf(found)] };
    }
    if (input.q) params.append("conditions[term]", input.q);
    if (input.type) params.append("conditions[type][]", input.type);
    if (input.agency) params.append("conditions[agencies][]", input.agency);
    if (input.since) params.append("conditions[publication_date][gte]", input.since);
    if (input.until) params.append("conditions[publication_date][lte]", input.until);
    params.append("per_page", String(input.limit));
    params.append("order", "newest");
    const answer = await api.json(`/documents.json?${params}`, FrSearch);
    return { total: answer.count, documents: (answer.results ?? []).map(documentOf) };
  },
});

function documentOf(d: FrDocument) {
  return {
    id: d.document_number,
    title: d.title,
    type: d.type,
    abstract: d.abstract ?? null,
    publicationDate: d.publication_date,
    agencies: (d.agencies ?? []).map((a) => ({ name: a.name ?? a.raw_name ?? "", slug: a.slug ?? null })),
    url: d.html_url,
    pdfUrl: d.pdf_url ?? null,
  };
}
