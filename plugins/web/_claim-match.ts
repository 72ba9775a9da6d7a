import { englishStopwords } from "../_shared/stopwords.ts";
import { wordsOf } from "../_shared/html-text.ts";

export interface Scored {
  score: number;
  matchedTerms: string[];
  numbersMatched: boolean | null;
}

/** Lower case, possessive and plural endings dropped: "towers" matches "tower", "cities" "city"; "Paris" stays. */
function stem(word: string): string {
  const w = word.toLowerCase().replace(/['’]s$/, "");
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  return w.length > 3 && /[^siu]s$/.test(w) ? w.slice(0, -1) : w;
}

/** The claim's content words (no function words), in order, without repeats. */
export function claimTerms(claim: string): string[] {
  const terms = wordsOf(claim).filter((w) => !englishStopwords.has(w.toLowerCase()) && (w.length > 1 || /\d/.test(w)));
  return [...new Set(terms.map(stem))];
}

export function numbersIn(text: string): Set<string> {
  return new Set((text.match(/\d[\d,.]*\d|\d/g) ?? []).map((n) => n.replace(/,/g, "").replace(/\.$/, "")));
}

/** Share of the claim's terms the evidence contains; halved when it lacks a number the claim states. */
export function scoreEvidence(claim: string, evidence: string): Scored {
  const terms = claimTerms(claim);
  const seen = new Set(wordsOf(evidence).map(stem));
  const matchedTerms = terms.filter((t) => seen.has(t));
  const wanted = numbersIn(claim);
  const found = numbersIn(evidence);
  const numbersMatched = wanted.size === 0 ? null : [...wanted].every((n) => found.has(n));
  const overlap = terms.length ? matchedTerms.length / terms.length : 0;
  const score = Math.round(overlap * (numbersMatched === false ? 0.5 : 1) * 100) / 100;
  return { score, matchedTerms, numbersMatched };
}

/** Mean of the best scores from the two best-scoring distinct sites; one site alone counts half. */
export function corroboration(items: { url: string; score: number }[]): number {
  const bestByHost = new Map<string, number>();
  for (const item of items) {
    const host = new URL(item.url).hostname.replace(/^www\./, "");
    bestByHost.set(host, Math.max(bestByHost.get(host) ?? 0, item.score));
  }
  const [first = 0, second = 0] = [...bestByHost.values()].sort((a, b) => b - a);
  return Math.round(((first + second) / 2) * 100) / 100;
}

export const confidenceMethod =
  "Lexical evidence matching, no language model: each snippet scores the share of the claim's content words it contains " +
  "(plural endings ignored), halved when it lacks a number the claim states. Confidence is the mean of the best scores from the two " +
  "best-scoring distinct sites (a single site counts half). likely_supported: confidence >= 0.75; no_evidence: no snippet scores " +
  ">= 0.5; otherwise inconclusive. Word overlap cannot see negation or contradiction, so this never answers refuted: read the evidence.";
