import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, checkUpstream } from "../../core/runtime/errors.ts";
import { limit } from "./_pr-inputs.ts";

/** What the code reads of GDELT's artlist answer: its articles, or exactly `{}` when nothing matches. */
const Article = v.object({
  url: v.string(),
  title: v.string(),
  seendate: v.string(),
  socialimage: v.optional(v.string()),
  domain: v.string(),
  language: v.string(),
  sourcecountry: v.string(),
});
const ArtList = v.union([v.object({ articles: v.array(Article) }), v.strictObject({})]);

const spans = ["1h", "6h", "24h", "3d", "7d", "1m", "3m"] as const;
const isoFromSeen = (s: string) => s.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, "$1-$2-$3T$4:$5:$6Z");

export default defineEndpoint({
  name: "news-web",
  method: "GET",
  price: "$0.005",
  summary: "Search news articles from the worldwide web by keywords: title, link, site, language, country, time seen",
  description:
    'From the GDELT DOC 2.0 API (monitors news sites worldwide in 65 languages; free, attribute GDELT), newest first. `q` uses GDELT syntax: words, "exact phrases", OR, -exclusions. `language` adds a sourcelang: filter (English names, e.g. spanish). GDELT refuses some queries (too short, too common words): that is a 400 with its reason.',
  input: v.object({
    q: v.pipe(v.string(), v.minLength(3), v.maxLength(200), v.description('Keywords, e.g. "solar power" europe')),
    timespan: v.optional(
      v.pipe(v.picklist(spans), v.description("How far back: hours (h), days (d) or months (m)")),
      "24h",
    ),
    language: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z]{3,20}$/, "must be a language name in English, lower case"),
        v.description("Only articles in this language, e.g. english"),
      ),
    ),
    limit: limit(250, 25, "articles"),
  }),
  output: v.object({
    count: v.number(),
    articles: v.array(
      v.object({
        title: v.string(),
        url: v.string(),
        domain: v.string(),
        seen: v.pipe(v.string(), v.description("When GDELT first saw the article, UTC ISO 8601")),
        language: v.string(),
        sourceCountry: v.pipe(v.string(), v.description("Country of the publisher, as GDELT names it")),
        image: v.nullable(v.string()),
      }),
    ),
  }),
  example: {
    input: { q: '"heat pump" subsidy', timespan: "7d", limit: 1 },
    output: {
      count: 1,
      articles: [
        {
          title: "Government extends heat pump subsidy to 2028",
          url: "https://www.example-news.co.uk/2025/01/15/heat-pump-subsidy-extended",
          domain: "example-news.co.uk",
          seen: "2025-01-15T12:30:00Z",
          language: "English",
          sourceCountry: "United Kingdom",
          image: "https://www.example-news.co.uk/images/heat-pump.jpg",
        },
      ],
    },
  },
  cacheTtl: 15 * 60,
  upstreams: ["gdelt"],
  async handler({ input, upstream }) {
    const query = input.language ? `${input.q} sourcelang:${input.language}` : input.q;
    const text = await upstream("gdelt").text("/doc/doc", {
      query: {
        query,
        mode: "artlist",
        format: "json",
        maxrecords: input.limit,
        timespan: input.timespan,
        sort: "datedesc",
      },
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw fieldError("q", `GDELT refused the query: ${text.trim().slice(0, 200)}`);
    }
    const answer = checkUpstream("gdelt", ArtList, parsed);
    const articles = ("articles" in answer ? answer.articles : []).map((a) => ({
      title: a.title,
      url: a.url,
      domain: a.domain,
      seen: isoFromSeen(a.seendate),
      language: a.language,
      sourceCountry: a.sourcecountry,
      image: a.socialimage || null,
    }));
    return { count: articles.length, articles };
  },
});
