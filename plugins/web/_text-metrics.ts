import { englishStopwords } from "../_shared/stopwords.ts";
import { wordsOf } from "../_shared/html-text.ts";

/** Adult silent-reading speed used for reading time (Brysbaert 2019 meta-analysis, non-fiction). */
export const wordsPerMinute = 238;

export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => wordsOf(s).length > 0);
}

/** English syllables by vowel groups, a silent final e dropped (but not in -le), at least one. */
export function syllablesOf(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!w) return 1;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  const groups = trimmed.match(/[aeiouy]{1,2}/g)?.length ?? 0;
  return Math.max(1, groups);
}

export function readability(words: string[], sentenceCount: number) {
  const syllables = words.reduce((sum, w) => sum + syllablesOf(w), 0);
  const wordsPerSentence = words.length / Math.max(1, sentenceCount);
  const syllablesPerWord = syllables / Math.max(1, words.length);
  return {
    fleschReadingEase: round(206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord),
    fleschKincaidGrade: round(0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59),
    averageWordsPerSentence: round(wordsPerSentence),
    averageSyllablesPerWord: round(syllablesPerWord),
  };
}

/** Most frequent words that are not English function words, numbers or single letters; density in percent of all words. */
export function keywordDensity(words: string[], top: number) {
  const counts = new Map<string, number>();
  for (const raw of words) {
    const word = raw.toLowerCase().replace(/’/g, "'");
    if (word.length < 2 || englishStopwords.has(word) || /^\d+$/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([word, count]) => ({ word, count, density: round((count / Math.max(1, words.length)) * 100) }));
}

const round = (n: number) => Math.round(n * 100) / 100;
