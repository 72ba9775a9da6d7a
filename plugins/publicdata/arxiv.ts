import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound } from "../../core/runtime/errors.ts";
import { parseArxivFeed } from "./_sg-arxiv.ts";

const sortBy = { relevance: "relevance", submitted: "submittedDate", updated: "lastUpdatedDate" } as const;

const Paper = v.object({
  id: v.pipe(v.string(), v.description("arXiv id without version, e.g. 1706.03762")),
  version: v.number(),
  title: v.string(),
  authors: v.array(v.string()),
  abstract: v.string(),
  categories: v.array(v.string()),
  primaryCategory: v.nullable(v.string()),
  published: v.pipe(v.string(), v.description("First version, ISO 8601")),
  updated: v.pipe(v.string(), v.description("This version, ISO 8601")),
  doi: v.nullable(v.string()),
  journalRef: v.nullable(v.string()),
  comment: v.nullable(v.string()),
  url: v.pipe(v.string(), v.description("The abstract page of this version")),
  pdfUrl: v.string(),
});

export default defineEndpoint({
  name: "arxiv",
  method: "GET",
  price: "$0.01",
  summary: "Search arXiv preprints by words and category, or fetch one by id",
  description:
    "From the arXiv API (Atom, metadata CC0). Give `q` (every word must match title, abstract, authors or comments), `category` " +
    "(e.g. cs.AI), or both; or `id` for one paper (a 404 when arXiv does not have it).",
  input: v.object({
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(200),
        v.regex(/^[A-Za-z0-9À-ÿ .'-]+$/, "letters, digits, spaces, . ' - only"),
        v.description("Search words"),
      ),
    ),
    category: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z-]+(\.[A-Za-z-]+)?$/, "not an arXiv category"),
        v.description("arXiv category, e.g. cs.AI, math.PR, hep-th"),
      ),
    ),
    id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/, "not an arXiv id"),
        v.description("arXiv id, e.g. 1706.03762 or hep-th/9901001"),
      ),
    ),
    sort: v.optional(
      v.pipe(
        v.picklist(["relevance", "submitted", "updated"]),
        v.description("Order of search results (newest first for dates)"),
      ),
      "relevance",
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most papers returned")),
      10,
    ),
  }),
  output: v.object({ total: v.pipe(v.number(), v.description("Papers arXiv matched")), papers: v.array(Paper) }),
  example: {
    input: { id: "1706.03762" },
    output: {
      total: 1,
      papers: [
        {
          id: "1706.03762",
          version: 7,
          title: "Attention Is All You Need",
          authors: [
            "Ashish Vaswani",
            "Noam Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
          ],
          abstract:
            "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks in an encoder-decoder configuration. The best performing models also connect the encoder and decoder through an attention mechanism. We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely.",
          categories: ["cs.CL", "cs.LG"],
          primaryCategory: "cs.CL",
          published: "2017-06-12T17:57:34.000Z",
          updated: "2023-08-02T00:41:18.000Z",
          doi: null,
          journalRef: null,
          comment: "15 pages, 5 figures",
          url: "https://arxiv.org/abs/1706.03762v7",
          pdfUrl: "https://arxiv.org/pdf/1706.03762v7",
        },
      ],
    },
  },
  cacheTtl: 3600,
  upstreams: ["arxiv"],
  async handler({ input, upstream }) {
    if (!input.q && !input.category && !input.id) {
      throw badRequest("give q, category or id", {
        issues: [{ field: "q", message: "q, category or id is required" }],
      });
    }
    const terms = [
      ...(input.q ?? "")
        .split(/\s+/)
        .filter(Boolean)
        .map((word) => `all:${word}`),
      ...(input.category ? [`cat:${input.category}`] : []),
    ];
    const query = input.id
      ? { id_list: input.id, max_results: 1 }
      : {
          search_query: terms.join(" AND "),
          start: 0,
          max_results: input.limit,
          sortBy: sortBy[input.sort],
          sortOrder: "descending",
        };
    const feed = parseArxivFeed(await upstream("arxiv").text("/query", { query }));
    if (feed.error) {
      if (input.id) throw notFound(`arXiv has no paper ${input.id}`);
      throw badRequest(`arXiv refused the query: ${feed.error}`);
    }
    if (input.id && !feed.papers.length) throw notFound(`arXiv has no paper ${input.id}`);
    return { total: input.id ? feed.papers.length : feed.total, papers: feed.papers.slice(0, input.limit) };
  },
});
