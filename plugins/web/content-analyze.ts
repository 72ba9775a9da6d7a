import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { readPage } from "./_article.ts";
import { wordsOf } from "../_shared/html-text.ts";
import { fetchHtml } from "../_shared/page-fetch.ts";
import { keywordDensity, readability, sentencesOf, wordsPerMinute } from "./_text-metrics.ts";

/** Bare URLs: counted as links, left out of words and sentences. */
const urlPattern = /\bhttps?:\/\/[^\s<>"')\]]+/g;

interface Source {
  title: string | null;
  text: string;
  headings: { level: number; text: string }[];
  links: { total: number; internal: number; external: number };
}

export default defineEndpoint({
  name: "content-analyze",
  method: "GET",
  price: "$0.03",
  probes: true,
  summary: "Analyze a page or a text: words, reading time, headings outline, keyword density, links and readability",
  description:
    "Give exactly one of url or text. For a URL the main text comes from Mozilla Readability (the whole body when no article is found), while " +
    "headings and links are counted over the whole page; internal links share the page's registrable domain. For text, Markdown-style " +
    "# headings and bare http(s) URLs are counted. Reading time assumes 238 words a minute. Readability scores (Flesch reading ease, " +
    "Flesch-Kincaid grade) use an English syllable heuristic and mean little for other languages.",
  input: v.object({
    url: v.optional(
      v.pipe(v.string(), v.url(), v.maxLength(2048), v.description("Page to analyze (http or https); or give text")),
    ),
    text: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200_000), v.description("Text to analyze; or give url")),
    ),
    keywords: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("How many top keywords to list")),
      10,
    ),
  }),
  output: v.object({
    source: v.picklist(["url", "text"]),
    url: v.nullable(v.string()),
    title: v.nullable(v.string()),
    words: v.number(),
    sentences: v.number(),
    characters: v.number(),
    readingTimeMinutes: v.pipe(v.number(), v.description("Words / 238, rounded up; 0 for no words")),
    headings: v.pipe(
      v.array(v.object({ level: v.number(), text: v.string() })),
      v.description("Headings in document order (h1-h6 or # lines)"),
    ),
    keywords: v.pipe(
      v.array(v.object({ word: v.string(), count: v.number(), density: v.number() })),
      v.description("density is percent of all words"),
    ),
    links: v.object({ total: v.number(), internal: v.number(), external: v.number() }),
    readability: v.object({
      fleschReadingEase: v.pipe(v.number(), v.description("Higher is easier; 60-70 is plain English")),
      fleschKincaidGrade: v.pipe(v.number(), v.description("US school grade")),
      averageWordsPerSentence: v.number(),
      averageSyllablesPerWord: v.number(),
    }),
  }),
  example: {
    input: {
      text: "# Cats\nCats sleep a lot. Cats purr when happy.\n## Care\nFeed cats twice a day. See https://example.org/cats for more.",
      keywords: 2,
    },
    output: {
      source: "text",
      url: null,
      title: "Cats",
      words: 18,
      sentences: 6,
      characters: 111,
      readingTimeMinutes: 1,
      headings: [
        { level: 1, text: "Cats" },
        { level: 2, text: "Care" },
      ],
      keywords: [
        { word: "cats", count: 4, density: 22.22 },
        { word: "care", count: 1, density: 5.56 },
      ],
      links: { total: 1, internal: 0, external: 1 },
      readability: {
        fleschReadingEase: 114.49,
        fleschKincaidGrade: -1.96,
        averageWordsPerSentence: 3,
        averageSyllablesPerWord: 1.06,
      },
    },
  },
  cacheTtl: 3600,
  async handler({ input, egress, signal }) {
    if ((input.url === undefined) === (input.text === undefined)) {
      const message = "give exactly one of url or text";
      throw badRequest(message, { issues: [{ field: input.url === undefined ? "url" : "text", message }] });
    }
    const source = input.url !== undefined ? await fromPage(egress, input.url, signal) : fromText(input.text!);
    const prose = source.text.replace(urlPattern, " ");
    const words = wordsOf(prose);
    const sentences = sentencesOf(prose).length;
    return {
      source: input.url !== undefined ? ("url" as const) : ("text" as const),
      url: input.url ?? null,
      title: source.title,
      words: words.length,
      sentences,
      characters: source.text.length,
      readingTimeMinutes: Math.ceil(words.length / wordsPerMinute),
      headings: source.headings,
      keywords: keywordDensity(words, input.keywords),
      links: source.links,
      readability: readability(words, sentences),
    };
  },
});

async function fromPage(egress: Parameters<typeof fetchHtml>[0], url: string, signal: AbortSignal): Promise<Source> {
  const page = await fetchHtml(egress, url);
  const { article, outline } = await readPage(page.html, page.url, signal);
  return { title: article.title, text: article.text, ...outline };
}

function fromText(text: string): Source {
  const headings = [...text.matchAll(/^(#{1,6})\s+(.+?)\s*#*\s*$/gm)].map((m) => ({ level: m[1].length, text: m[2] }));
  const body = text.replace(/^#{1,6}\s+/gm, "");
  const urls = body.match(urlPattern)?.length ?? 0;
  return {
    title: headings[0]?.text ?? null,
    text: body,
    headings,
    links: { total: urls, internal: 0, external: urls },
  };
}
