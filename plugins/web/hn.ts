import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

/** What the code reads of Algolia's HN search: `hits` must be there, so a wrong answer is never an empty list. */
const AlgoliaAnswer = v.object({
  hits: v.array(
    v.object({
      objectID: v.string(),
      title: v.nullish(v.string()),
      url: v.nullish(v.string()),
      author: v.nullish(v.string()),
      points: v.nullish(v.number()),
      num_comments: v.nullish(v.number()),
      created_at: v.nullish(v.string()),
    }),
  ),
  nbHits: v.nullish(v.number()),
});

const weekSeconds = 7 * 86_400;

export default defineEndpoint({
  name: "hn",
  method: "GET",
  price: "$0.01",
  summary: "Hacker News stories: the front page, newest, best of the week, or a search",
  description:
    "From the HN Search API by Algolia. top: stories on the front page now; new: newest stories; best: the week's stories with the most points " +
    "(stories since the start of the hour seven days ago); search: stories matching `query`, most relevant first. top and best are ordered by " +
    "points, as Algolia ranks them with no query.",
  input: v.object({
    mode: v.optional(v.pipe(v.picklist(["top", "new", "best", "search"]), v.description("Which stories")), "top"),
    query: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Search words; required when mode is search")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most stories returned")),
      20,
    ),
  }),
  output: v.object({
    mode: v.picklist(["top", "new", "best", "search"]),
    query: v.nullable(v.string()),
    total: v.pipe(v.number(), v.description("Stories Algolia matched")),
    stories: v.array(
      v.object({
        id: v.number(),
        title: v.string(),
        url: v.pipe(v.nullable(v.string()), v.description("The linked page; null for Ask HN and other text posts")),
        hnUrl: v.string(),
        points: v.number(),
        comments: v.number(),
        author: v.string(),
        createdAt: v.string(),
      }),
    ),
  }),
  example: {
    input: { mode: "search", query: "x402", limit: 1 },
    output: {
      mode: "search",
      query: "x402",
      total: 57,
      stories: [
        {
          id: 43908129,
          title: "Coinbase x402: An open protocol for internet-native payments",
          url: "https://www.x402.org/",
          hnUrl: "https://news.ycombinator.com/item?id=43908129",
          points: 211,
          comments: 118,
          author: "ubj",
          createdAt: "2025-05-06T16:04:12Z",
        },
      ],
    },
  },
  cacheTtl: 120,
  upstreams: ["hn-algolia"],
  async handler({ input, upstream, now }) {
    if (input.mode === "search" && !input.query) {
      throw badRequest("query is required when mode is search", {
        issues: [{ field: "query", message: "required when mode is search" }],
      });
    }
    const hitsPerPage = input.limit;
    const since = Math.floor(now().getTime() / 3_600_000) * 3600 - weekSeconds;
    const [path, query] =
      input.mode === "top"
        ? ["/search", { tags: "front_page", hitsPerPage }]
        : input.mode === "new"
          ? ["/search_by_date", { tags: "story", hitsPerPage }]
          : input.mode === "best"
            ? ["/search", { tags: "story", numericFilters: `created_at_i>${since}`, hitsPerPage }]
            : ["/search", { query: input.query, tags: "story", hitsPerPage }];
    const answer = await upstream("hn-algolia").json(path as string, AlgoliaAnswer, { query });
    return {
      mode: input.mode,
      query: input.mode === "search" ? input.query! : null,
      total: answer.nbHits ?? 0,
      stories: answer.hits.slice(0, input.limit).map((hit) => ({
        id: Number(hit.objectID),
        title: hit.title ?? "",
        url: hit.url || null,
        hnUrl: `https://news.ycombinator.com/item?id=${hit.objectID}`,
        points: hit.points ?? 0,
        comments: hit.num_comments ?? 0,
        author: hit.author ?? "",
        createdAt: hit.created_at ?? "",
      })),
    };
  },
});
