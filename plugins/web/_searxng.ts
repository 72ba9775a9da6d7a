import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

const o = v.optional;
/** The parts of SearXNG's `format=json` answer we read (https://docs.searxng.org/dev/search_api.html); `results` always comes. */
const SearxngAnswer = v.object({
  results: v.array(
    v.object({
      url: o(v.string()),
      title: o(v.string()),
      content: o(v.string()),
      engine: o(v.string()),
      engines: o(v.array(v.string())),
      publishedDate: v.nullish(v.string()),
      score: o(v.number()),
    }),
  ),
  answers: o(v.array(v.union([v.string(), v.object({ answer: o(v.string()) })]))),
  suggestions: o(v.array(v.string())),
  unresponsive_engines: o(v.array(v.tuple([v.string(), v.string()]))),
});

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
  engines: string[];
  publishedDate: string | null;
  score: number | null;
}

export interface SearchOptions {
  language?: string;
  timeRange?: "day" | "week" | "month" | "year";
  safesearch?: 0 | 1 | 2;
  page?: number;
}

export async function searchWeb(searxng: Upstream, query: string, options: SearchOptions = {}) {
  const answer = await searxng.json("/search", SearxngAnswer, {
    query: {
      q: query,
      format: "json",
      language: options.language,
      time_range: options.timeRange,
      safesearch: options.safesearch,
      pageno: options.page,
    },
  });
  const results: WebResult[] = answer.results
    .filter((r) => typeof r.url === "string" && /^https?:\/\//.test(r.url))
    .map((r) => ({
      title: (r.title ?? "").trim(),
      url: r.url!,
      snippet: (r.content ?? "").replace(/\s+/g, " ").trim(),
      engines: r.engines ?? (r.engine ? [r.engine] : []),
      publishedDate: isoOrNull(r.publishedDate),
      score: typeof r.score === "number" ? r.score : null,
    }));
  return {
    results,
    answers: (answer.answers ?? []).map((a) => (typeof a === "string" ? a : (a.answer ?? ""))).filter(Boolean),
    suggestions: answer.suggestions ?? [],
    unresponsiveEngines: (answer.unresponsive_engines ?? []).map(([engine, reason]) => ({ engine, reason })),
  };
}

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
