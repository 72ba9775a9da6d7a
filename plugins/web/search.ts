import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { searchWeb } from "./_searxng.ts";

export default defineEndpoint({
  name: "search",
  method: "GET",
  price: "$0.01",
  mcp: true,
  summary: "Web search: titles, URLs and snippets from a SearXNG metasearch instance",
  description:
    "No official keyless web-search API exists (DuckDuckGo's Instant Answer API has no web results and scraping its HTML breaks its terms), " +
    "so this endpoint queries a SearXNG instance the operator runs, at UPSTREAM_SEARXNG_URL, with JSON " +
    "output enabled (unmounted until it is set). Results are whatever the instance's engines return, merged and ranked by SearXNG.",
  input: v.object({
    q: v.pipe(v.string(), v.minLength(1), v.maxLength(400), v.description("Search query")),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("Most results returned")),
      10,
    ),
    page: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description("Result page, from 1")),
      1,
    ),
    language: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(all|[a-z]{2}(-[A-Z]{2})?)$/),
        v.description("Language code such as en or en-US, or all"),
      ),
    ),
    timeRange: v.optional(
      v.pipe(v.picklist(["day", "week", "month", "year"]), v.description("Only results from this recent period")),
    ),
    safesearch: v.optional(v.pipe(v.picklist([0, 1, 2]), v.description("0 off, 1 moderate, 2 strict")), 1),
  }),
  output: v.object({
    query: v.string(),
    results: v.array(
      v.object({
        title: v.string(),
        url: v.string(),
        snippet: v.string(),
        engines: v.pipe(v.array(v.string()), v.description("Search engines that returned this result")),
        publishedDate: v.pipe(v.nullable(v.string()), v.description("ISO 8601, when an engine gives one")),
        score: v.pipe(v.nullable(v.number()), v.description("SearXNG's merge score; higher ranks first")),
      }),
    ),
    answers: v.pipe(v.array(v.string()), v.description("Direct answers some engines give")),
    suggestions: v.array(v.string()),
    unresponsiveEngines: v.pipe(
      v.array(v.object({ engine: v.string(), reason: v.string() })),
      v.description("Engines that failed for this query"),
    ),
  }),
  example: {
    input: { q: "x402 payment protocol", limit: 1, page: 1, safesearch: 1 },
    output: {
      query: "x402 payment protocol",
      results: [
        {
          title: "x402 - Payment Required",
          url: "https://www.x402.org/",
          snippet:
            "x402 is an open payment standard that enables AI agents and web services to autonomously pay for API access, data, and digital services.",
          engines: ["duckduckgo", "brave"],
          publishedDate: null,
          score: 4,
        },
      ],
      answers: [],
      suggestions: [],
      unresponsiveEngines: [],
    },
  },
  cacheTtl: 3600,
  upstreams: ["searxng"],
  async handler({ input, upstream }) {
    const found = await searchWeb(upstream("searxng"), input.q, {
      language: input.language,
      timeRange: input.timeRange,
      safesearch: input.safesearch,
      page: input.page,
    });
    return { query: input.q, ...found, results: found.results.slice(0, input.limit) };
  },
});
