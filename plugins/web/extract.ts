import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { readArticle } from "./_article.ts";
import { truncate, wordsOf } from "../_shared/html-text.ts";
import { fetchHtml } from "../_shared/page-fetch.ts";

const Nullable = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));

export default defineEndpoint({
  name: "extract",
  method: "GET",
  price: "$0.01",
  mcp: true,
  probes: true,
  summary: "Extract the readable article from a web page: title, byline, text, excerpt, language",
  description:
    "Fetches the page (http/https, ports 80 and 443, public addresses only, 5 MB and 10 s caps) and runs Mozilla Readability over it. " +
    "Pages built by JavaScript extract poorly. When Readability finds no article, the whole body text is returned and `method` says so.",
  input: v.object({
    url: v.pipe(v.string(), v.url(), v.maxLength(2048), v.description("Page to read (http or https)")),
    maxChars: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(100),
        v.maxValue(200_000),
        v.description("Longest text returned, in characters; longer text is cut"),
      ),
      20_000,
    ),
  }),
  output: v.object({
    url: v.pipe(v.string(), v.description("Final URL after redirects")),
    title: Nullable("Article title"),
    byline: Nullable("Author line, when the page names one"),
    siteName: Nullable("Site name from the page's metadata"),
    publishedTime: Nullable("Publication time as the page states it"),
    lang: Nullable("Language from the page's lang attribute"),
    excerpt: Nullable("Short description or first paragraph"),
    text: v.pipe(v.string(), v.description("Article text, one paragraph per line")),
    length: v.pipe(v.number(), v.description("Characters in the full text, before any cut")),
    wordCount: v.number(),
    truncated: v.boolean(),
    method: v.pipe(
      v.picklist(["readability", "body"]),
      v.description("readability: an article was found; body: the whole body text"),
    ),
  }),
  example: {
    input: { url: "https://example.com/", maxChars: 20_000 },
    output: {
      url: "https://example.com/",
      title: "Example Domain",
      byline: null,
      siteName: null,
      publishedTime: null,
      lang: "en",
      excerpt: "This domain is for use in documentation examples without needing permission. Avoid use in operations.",
      text: "This domain is for use in documentation examples without needing permission. Avoid use in operations.\nLearn more",
      length: 112,
      wordCount: 17,
      truncated: false,
      method: "readability",
    },
  },
  cacheTtl: 600,
  async handler({ input, egress, signal }) {
    const page = await fetchHtml(egress, input.url);
    const article = await readArticle(page.html, page.url, signal);
    return {
      url: page.url,
      ...article,
      text: truncate(article.text, input.maxChars),
      length: article.text.length,
      wordCount: wordsOf(article.text).length,
      truncated: article.text.length > input.maxChars,
    };
  },
});
