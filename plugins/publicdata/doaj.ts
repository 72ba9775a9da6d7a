import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, ServiceError } from "../../core/runtime/errors.ts";

const o = v.optional;
/** What the code reads of DOAJ's article and journal records (bibjson), and of a page of them. */
const DoajArticle = v.object({
  id: v.string(),
  bibjson: v.object({
    title: o(v.string()),
    year: o(v.string()),
    abstract: o(v.string()),
    author: o(v.array(v.object({ name: v.string() }))),
    journal: o(v.object({ title: o(v.string()), publisher: o(v.string()), issns: o(v.array(v.string())) })),
    identifier: o(v.array(v.object({ type: v.string(), id: v.string() }))),
    link: o(v.array(v.object({ type: v.string(), url: v.string() }))),
    keywords: o(v.array(v.string())),
  }),
});
type DoajArticle = v.InferOutput<typeof DoajArticle>;
const DoajJournal = v.object({
  id: v.string(),
  bibjson: v.object({
    title: v.string(),
    eissn: o(v.string()),
    pissn: o(v.string()),
    publisher: o(v.object({ name: o(v.string()), country: o(v.string()) })),
    license: o(v.array(v.object({ type: v.string() }))),
    language: o(v.array(v.string())),
    subject: o(v.array(v.object({ term: v.string() }))),
    apc: o(v.object({ has_apc: v.boolean() })),
    ref: o(v.object({ journal: o(v.string()) })),
  }),
});
type DoajJournal = v.InferOutput<typeof DoajJournal>;
const DoajPage = <S extends v.GenericSchema>(item: S) =>
  v.object({ total: v.number(), page: v.number(), results: v.array(item) });

const text = v.nullable(v.string());
const Article = v.object({
  id: v.pipe(v.string(), v.description("DOAJ record id")),
  title: text,
  authors: v.array(v.string()),
  journal: text,
  publisher: text,
  issns: v.array(v.string()),
  year: text,
  doi: text,
  abstract: text,
  keywords: v.array(v.string()),
  fullText: v.pipe(text, v.description("Link to the full text at the publisher")),
  url: v.pipe(v.string(), v.description("The record on doaj.org")),
});
const Journal = v.object({
  id: v.string(),
  title: v.string(),
  publisher: text,
  country: v.pipe(text, v.description("Publisher's country, ISO 3166 alpha-2")),
  eissn: text,
  pissn: text,
  licenses: v.array(v.string()),
  languages: v.array(v.string()),
  subjects: v.array(v.string()),
  hasApc: v.pipe(v.nullable(v.boolean()), v.description("Charges authors a publication fee")),
  homepage: text,
  url: v.string(),
});

export default defineEndpoint({
  name: "doaj",
  method: "GET",
  price: "$0.005",
  summary: "Directory of Open Access Journals: search open-access articles or journals",
  description:
    "From the DOAJ search API (metadata CC0). `q` takes DOAJ's Elasticsearch query syntax: plain words, or fields such as doi:10.1234/x, " +
    'bibjson.title:"climate", issn:1234-5678. `type` picks articles (default) or journals; the other list is empty. No match answers ' +
    "empty lists; a query DOAJ cannot parse is a 400.",
  input: v.object({
    q: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(300),
      v.description("Search query, e.g. coral reef or doi:10.3390/su12010001"),
    ),
    type: v.optional(v.pipe(v.picklist(["articles", "journals"]), v.description("What to search")), "articles"),
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Result page")), 1),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Results per page")),
      10,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Records DOAJ matched")),
    page: v.number(),
    articles: v.array(Article),
    journals: v.array(Journal),
  }),
  example: {
    input: { q: "issn:1932-6203", type: "journals" },
    output: {
      total: 1,
      page: 1,
      articles: [],
      journals: [
        {
          id: "e7a3a7e1c5e14b2f9a0a4cf9cb1c2c8a",
          title: "PLoS ONE",
          publisher: "Public Library of Science (PLoS)",
          country: "US",
          eissn: "1932-6203",
          pissn: null,
          licenses: ["CC BY"],
          languages: ["EN"],
          subjects: ["Medicine", "Science"],
          hasApc: true,
          homepage: "https://journals.plos.org/plosone/",
          url: "https://doaj.org/toc/1932-6203",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["doaj"],
  async handler({ input, upstream }) {
    const path = `/search/${input.type}/${encodeURIComponent(input.q)}`;
    const query = { page: input.page, pageSize: input.limit };
    const api = upstream("doaj");
    if (input.type === "journals") {
      const found = await api.json(path, DoajPage(DoajJournal), { query, keepErrorBody: true }).catch(refusal);
      return { total: found.total, page: found.page, articles: [], journals: found.results.map(journalOf) };
    }
    const found = await api.json(path, DoajPage(DoajArticle), { query, keepErrorBody: true }).catch(refusal);
    return { total: found.total, page: found.page, articles: found.results.map(articleOf), journals: [] };
  },
});

function articleOf(a: DoajArticle) {
  const b = a.bibjson;
  return {
    id: a.id,
    title: b.title ?? null,
    authors: (b.author ?? []).map((x) => x.name),
    journal: b.journal?.title ?? null,
    publisher: b.journal?.publisher ?? null,
    issns: b.journal?.issns ?? [],
    year: b.year ?? null,
    doi: b.identifier?.find((i) => i.type.toLowerCase() === "doi")?.id ?? null,
    abstract: b.abstract ?? null,
    keywords: b.keywords ?? [],
    fullText: b.link?.find((l) => l.type === "fulltext")?.url ?? null,
    url: `https://doaj.org/article/${a.id}`,
  };
}

function journalOf(j: DoajJournal) {
  const b = j.bibjson;
  return {
    id: j.id,
    title: b.title,
    publisher: b.publisher?.name ?? null,
    country: b.publisher?.country ?? null,
    eissn: b.eissn ?? null,
    pissn: b.pissn ?? null,
    licenses: (b.license ?? []).map((l) => l.type),
    languages: b.language ?? [],
    subjects: (b.subject ?? []).map((s) => s.term),
    hasApc: b.apc?.has_apc ?? null,
    homepage: b.ref?.journal ?? null,
    url: `https://doaj.org/toc/${b.eissn ?? b.pissn ?? j.id}`,
  };
}

/** DOAJ answers a query it cannot parse with a 400 and an explanation. */
function refusal(error: unknown): never {
  const details =
    error instanceof ServiceError ? (error.details as { status?: number; body?: any } | undefined) : undefined;
  if (details?.status !== 400) throw error;
  throw badRequest(`DOAJ refused the query: ${details.body?.error ?? "bad query"}`, {
    issues: [{ field: "q", message: "DOAJ cannot parse this query" }],
  });
}
