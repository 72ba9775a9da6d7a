import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, notFound } from "../../core/runtime/errors.ts";
import { licence, pageUrl, RestPage, titlePath } from "./_pr-wikipedia.ts";

/** What the code reads of MediaWiki's opensearch answer: [search, titles, descriptions, urls]. */
const OpenSearch = v.tuple([v.string(), v.array(v.string())]);

export default defineEndpoint({
  name: "wikipedia",
  method: "GET",
  price: "$0.005",
  mcp: true,
  summary: "Summary of an English Wikipedia article by title or search: extract, description, image, Wikidata id, link",
  description:
    "Give `title` (redirects are followed) or `q` (the best search match is summarized). From the Wikimedia REST API page summary; `type` is `disambiguation` when the title names several subjects. The text is CC BY-SA 4.0: attribute it with the link in `url`.",
  input: v.object({
    title: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(255), v.description("Exact article title, e.g. Alan Turing")),
    ),
    q: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(200), v.description("Search terms; the best match is summarized")),
    ),
  }),
  output: v.object({
    title: v.string(),
    description: v.nullable(v.pipe(v.string(), v.description("Short Wikidata description"))),
    extract: v.pipe(v.string(), v.description("Plain-text lead of the article")),
    type: v.pipe(v.string(), v.description("standard, disambiguation, no-extract or mainpage")),
    pageId: v.nullable(v.number()),
    wikidataId: v.nullable(v.string()),
    url: v.string(),
    thumbnail: v.nullable(v.object({ url: v.string(), width: v.number(), height: v.number() })),
    lastModified: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
    licence: v.string(),
  }),
  example: {
    input: { title: "Alan Turing" },
    output: {
      title: "Alan Turing",
      description: "English computer scientist (1912–1954)",
      extract:
        "Alan Mathison Turing was an English mathematician, computer scientist, logician, cryptanalyst, philosopher and theoretical biologist. He was highly influential in the development of theoretical computer science, providing a formalisation of the concepts of algorithm and computation with the Turing machine, which can be considered a model of a general-purpose computer. Turing is widely considered to be the father of theoretical computer science.",
      type: "standard",
      pageId: 1208,
      wikidataId: "Q7251",
      url: "https://en.wikipedia.org/wiki/Alan_Turing",
      thumbnail: {
        url: "https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Alan_Turing_Aged_16.jpg/330px-Alan_Turing_Aged_16.jpg",
        width: 330,
        height: 462,
      },
      lastModified: "2025-01-12T09:14:31Z",
      licence,
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["wikipedia", "wikipedia-api"],
  async handler({ input, upstream }) {
    if ((input.title === undefined) === (input.q === undefined)) throw fieldError("title", "give either title or q");
    let title = input.title;
    if (title === undefined) {
      const [, titles] = await upstream("wikipedia-api").json("", OpenSearch, {
        query: { action: "opensearch", search: input.q, limit: 1, namespace: 0, format: "json" },
      });
      if (!titles.length) throw notFound(`No English Wikipedia article matches ${input.q}`);
      title = titles[0];
    }
    const page = await upstream("wikipedia").json(`/page/summary/${titlePath(title)}`, RestPage, {
      query: { redirect: "true" },
      notFoundAs404: true,
    });
    return {
      title: page.title,
      description: page.description ?? null,
      extract: page.extract ?? "",
      type: page.type ?? "standard",
      pageId: page.pageid ?? null,
      wikidataId: page.wikibase_item ?? null,
      url: pageUrl(page),
      thumbnail: page.thumbnail
        ? { url: page.thumbnail.source, width: page.thumbnail.width, height: page.thumbnail.height }
        : null,
      lastModified: page.timestamp ?? null,
      licence,
    };
  },
});
