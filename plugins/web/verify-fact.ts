import * as v from "valibot";
import { defineEndpoint, type Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { claimTerms, confidenceMethod, corroboration, scoreEvidence } from "./_claim-match.ts";
import { htmlToText } from "../_shared/html-text.ts";
import { searchWeb } from "./_searxng.ts";

/** What the code reads of MediaWiki's list=search answer (`query.search` always comes, empty when nothing matches). */
const WikiSearch = v.object({
  query: v.object({ search: v.array(v.object({ title: v.string(), snippet: v.optional(v.string()) })) }),
});

interface Candidate {
  source: "wikipedia" | "web";
  title: string;
  url: string;
  snippet: string;
}

const Source = v.object({
  name: v.picklist(["wikipedia", "searxng"]),
  status: v.picklist(["ok", "failed", "not_configured"]),
  results: v.number(),
  error: v.nullable(v.string()),
});

export default defineEndpoint({
  name: "verify-fact",
  method: "GET",
  price: "$0.02",
  summary:
    "Check a claim against Wikipedia and web search: evidence snippets with sources, a verdict and how its confidence was computed",
  description:
    "Searches English Wikipedia (MediaWiki search API) for the claim's content words and the web (our SearXNG upstream, see /v1/search) " +
    "for the claim when the operator runs one (`sources` says `not_configured` otherwise), then scores each snippet. Every piece of evidence is quoted from a source with its URL; nothing is generated. " +
    "When one source fails the other is still used and `sources` says so; when both fail the call fails (502, not charged). " +
    "The confidence method is stated in `method`.",
  input: v.object({
    claim: v.pipe(v.string(), v.minLength(8), v.maxLength(500), v.description("The statement to check, in English")),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description("Most evidence items returned")),
      5,
    ),
  }),
  output: v.object({
    claim: v.string(),
    verdict: v.picklist(["likely_supported", "inconclusive", "no_evidence"]),
    confidence: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    method: v.string(),
    terms: v.pipe(
      v.array(v.string()),
      v.description("Content words of the claim that were matched against the evidence"),
    ),
    evidence: v.array(
      v.object({
        source: v.picklist(["wikipedia", "web"]),
        title: v.string(),
        url: v.string(),
        snippet: v.string(),
        score: v.pipe(v.number(), v.description("0-1, see method")),
        matchedTerms: v.array(v.string()),
        numbersMatched: v.pipe(
          v.nullable(v.boolean()),
          v.description("Whether every number in the claim appears; null when the claim has none"),
        ),
      }),
    ),
    sources: v.array(Source),
  }),
  example: {
    input: { claim: "The Eiffel Tower is in Paris", limit: 1 },
    output: {
      claim: "The Eiffel Tower is in Paris",
      verdict: "likely_supported",
      confidence: 1,
      method: confidenceMethod,
      terms: ["eiffel", "tower", "paris"],
      evidence: [
        {
          source: "wikipedia",
          title: "Eiffel Tower",
          url: "https://en.wikipedia.org/wiki/Eiffel_Tower",
          snippet: "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France.",
          score: 1,
          matchedTerms: ["eiffel", "tower", "paris"],
          numbersMatched: null,
        },
      ],
      sources: [
        { name: "wikipedia", status: "ok", results: 5, error: null },
        { name: "searxng", status: "ok", results: 10, error: null },
      ],
    },
  },
  cacheTtl: 86_400,
  upstreams: ["wikipedia-api"],
  optionalUpstreams: ["searxng"],
  async handler({ input, upstream }) {
    const terms = claimTerms(input.claim);
    const searxng = upstream("searxng");
    const webConfigured = searxng.url !== "";
    const [wiki, web] = await Promise.all([
      attempt(() => searchWikipedia(upstream("wikipedia-api"), terms.length ? terms.join(" ") : input.claim)),
      webConfigured
        ? attempt(async () =>
            (await searchWeb(searxng, input.claim)).results.map(
              (r): Candidate => ({ source: "web", title: r.title, url: r.url, snippet: r.snippet }),
            ),
          )
        : { items: [], error: null },
    ]);
    if (wiki.error && (web.error || !webConfigured)) {
      throw new ServiceError(502, "upstream_error", "both evidence sources failed", {
        upstreams: ["wikipedia-api", "searxng"],
      });
    }
    const scored = [...wiki.items, ...web.items]
      .map((c) => ({ ...c, ...scoreEvidence(input.claim, `${c.title} ${c.snippet}`) }))
      .sort((a, b) => b.score - a.score);
    const confidence = corroboration(scored);
    const verdict = !scored.some((e) => e.score >= 0.5)
      ? "no_evidence"
      : confidence >= 0.75
        ? "likely_supported"
        : "inconclusive";
    return {
      claim: input.claim,
      verdict: verdict as "no_evidence" | "likely_supported" | "inconclusive",
      confidence,
      method: confidenceMethod,
      terms,
      evidence: scored.slice(0, input.limit),
      sources: [
        {
          name: "wikipedia" as const,
          status: wiki.error ? ("failed" as const) : ("ok" as const),
          results: wiki.items.length,
          error: wiki.error,
        },
        {
          name: "searxng" as const,
          status: !webConfigured ? ("not_configured" as const) : web.error ? ("failed" as const) : ("ok" as const),
          results: web.items.length,
          error: web.error,
        },
      ],
    };
  },
});

async function searchWikipedia(wiki: Upstream, query: string): Promise<Candidate[]> {
  const answer = await wiki.json("", WikiSearch, {
    query: {
      action: "query",
      list: "search",
      srsearch: query,
      srlimit: 5,
      srprop: "snippet",
      format: "json",
      formatversion: 2,
    },
  });
  return answer.query.search.map((page) => ({
    source: "wikipedia",
    title: page.title,
    url: `https://en.wikipedia.org/wiki/${encodeURIComponent(page.title.replace(/ /g, "_")).replace(/%2F/g, "/").replace(/%3A/g, ":")}`,
    snippet: htmlToText(page.snippet ?? "").replace(/\n/g, " "),
  }));
}

/** An upstream that fails (5xx, timeout, open breaker) leaves its evidence out instead of failing the call. */
async function attempt(run: () => Promise<Candidate[]>): Promise<{ items: Candidate[]; error: string | null }> {
  try {
    return { items: await run(), error: null };
  } catch (error) {
    if (error instanceof ServiceError && error.status >= 500) return { items: [], error: error.message };
    throw error;
  }
}
