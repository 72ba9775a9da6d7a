import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** What the code reads of a Semantic Scholar paper search: `data` is left out when nothing matches. */
const S2Paper = v.object({
  paperId: v.string(),
  url: v.string(),
  title: v.string(),
  abstract: v.nullable(v.string()),
  year: v.nullable(v.number()),
  publicationDate: v.nullable(v.string()),
  venue: v.nullable(v.string()),
  citationCount: v.nullable(v.number()),
  authors: v.array(v.object({ name: v.string() })),
  externalIds: v.nullable(
    v.object({
      DOI: v.optional(v.union([v.string(), v.number()])),
      ArXiv: v.optional(v.union([v.string(), v.number()])),
    }),
  ),
  openAccessPdf: v.nullable(v.object({ url: v.string() })),
});
const S2Search = v.object({ total: v.number(), data: v.optional(v.array(S2Paper)) });

const fields = "title,url,abstract,year,publicationDate,venue,citationCount,authors,externalIds,openAccessPdf";
const text = v.nullable(v.string());

export default defineEndpoint({
  name: "papers",
  method: "GET",
  price: "$0.01",
  summary:
    "Scholarly papers across all fields: title, authors, year, venue, citations, abstract, DOI and open-access PDF",
  description:
    "From the Semantic Scholar Graph API (optional UPSTREAM_SEMANTIC_SCHOLAR_KEY; the keyless pool is shared and may be busy, then a 502). " +
    "Ranked by relevance. `year` takes 2019 or a range 2016-2020 (open ends allowed: 2020-). No match answers an empty list.",
  input: v.object({
    q: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(300),
      v.description("Search words, e.g. attention is all you need"),
    ),
    year: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(\d{4}|\d{4}-|-\d{4}|\d{4}-\d{4})$/, "a year or a range such as 2016-2020"),
        v.description("Publication year or range"),
      ),
    ),
    openAccess: v.optional(v.pipe(v.boolean(), v.description("Only papers with a free PDF")), false),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most papers returned")),
      10,
    ),
    offset: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(900), v.description("Papers to skip")),
      0,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Papers Semantic Scholar matched (approximate)")),
    papers: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("Semantic Scholar paper id")),
        title: v.string(),
        authors: v.array(v.string()),
        year: v.nullable(v.number()),
        published: v.pipe(text, v.description("YYYY-MM-DD")),
        venue: text,
        citations: v.nullable(v.number()),
        abstract: text,
        doi: text,
        arxiv: text,
        pdf: v.pipe(text, v.description("Open-access PDF")),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { q: "attention is all you need", limit: 1 },
    output: {
      total: 5392,
      papers: [
        {
          id: "204e3073870fae3d05bcbc2f6a8e263d9b72e776",
          title: "Attention is All you Need",
          authors: [
            "Ashish Vaswani",
            "Noam M. Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
          ],
          year: 2017,
          published: "2017-06-12",
          venue: "Neural Information Processing Systems",
          citations: 124376,
          abstract: null,
          doi: null,
          arxiv: "1706.03762",
          pdf: null,
          url: "https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776",
        },
      ],
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["semantic-scholar"],
  async handler({ input, upstream }) {
    const found = await upstream("semantic-scholar").json("/paper/search", S2Search, {
      query: {
        query: input.q,
        fields,
        year: input.year,
        openAccessPdf: input.openAccess ? "" : undefined,
        limit: input.limit,
        offset: input.offset,
      },
    });
    return {
      total: found.total,
      papers: (found.data ?? []).map((p) => ({
        id: p.paperId,
        title: p.title,
        authors: p.authors.map((a) => a.name),
        year: p.year,
        published: p.publicationDate,
        venue: p.venue || null,
        citations: p.citationCount,
        abstract: p.abstract,
        doi: p.externalIds?.DOI ? String(p.externalIds.DOI) : null,
        arxiv: p.externalIds?.ArXiv ? String(p.externalIds.ArXiv) : null,
        pdf: p.openAccessPdf?.url || null,
        url: p.url,
      })),
    };
  },
});
