import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { englishStopwords } from "../_shared/stopwords.ts";
import { englishSegmenter, segmentsOf } from "./_segments.ts";

export default defineEndpoint({
  name: "summarize",
  method: "GET",
  price: "$0.005",
  summary: "Extractive summary: the text's most representative sentences, in their original order",
  description:
    "Each sentence is scored by how frequent its content words (stop words ignored) are across the whole text, " +
    "divided by the square root of its word count so long sentences are not favoured unduly; the top sentences are returned in reading order. " +
    "Sentences are copied, never rewritten. Tuned for English.",
  input: v.object({
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(100_000), v.description("Text to summarize")),
    sentences: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("How many sentences to keep")),
      3,
    ),
  }),
  output: v.object({
    summary: v.pipe(v.string(), v.description("The kept sentences joined by spaces")),
    sentences: v.array(
      v.object({
        index: v.pipe(v.number(), v.description("0-based position of the sentence in the text")),
        text: v.string(),
        score: v.pipe(v.number(), v.description("Relevance score, rounded to 4 decimals")),
      }),
    ),
    sentenceCount: v.pipe(v.number(), v.description("Sentences found in the text")),
  }),
  example: {
    input: {
      text:
        "Solar power is now the cheapest source of new electricity in many countries. " +
        "The weather was pleasant on the day of the announcement. " +
        "Falling panel prices made solar power cheaper than coal and gas. " +
        "Storage remains the main challenge for solar power, because the sun sets every evening. " +
        "Officials spoke for an hour.",
      sentences: 2,
    },
    output: {
      summary:
        "Falling panel prices made solar power cheaper than coal and gas. Storage remains the main challenge for solar power, because the sun sets every evening.",
      sentences: [
        {
          index: 2,
          text: "Falling panel prices made solar power cheaper than coal and gas.",
          score: 1.4444,
        },
        {
          index: 3,
          text: "Storage remains the main challenge for solar power, because the sun sets every evening.",
          score: 1.4757,
        },
      ],
      sentenceCount: 5,
    },
  },
  handler({ input }) {
    const sentences = splitSentences(input.text);
    const scores = scoreSentences(sentences);
    const kept = scores
      .map((score, index) => ({ index, score }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, input.sentences)
      .sort((a, b) => a.index - b.index)
      .map(({ index, score }) => ({ index, text: sentences[index], score: Math.round(score * 10_000) / 10_000 }));
    return { summary: kept.map((s) => s.text).join(" "), sentences: kept, sentenceCount: sentences.length };
  },
});

/** ICU ends a sentence after "Dr." or "e.g."; these are joined back to the sentence they belong to. */
const abbreviation = /(?:^|\s)(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|inc|ltd|co|no|fig|approx|[a-z])\.$/i;

/** A single line break is wrapping, not the end of a sentence (ICU would split there); blank lines still separate. */
const unwrap = (text: string) => text.replace(/\r\n?/g, "\n").replace(/([^\n])\n(?!\n)/g, "$1 ");

function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let pending = "";
  for (const { segment } of segmentsOf(englishSegmenter("sentence"), unwrap(text))) {
    pending += segment;
    if (!abbreviation.test(pending.trimEnd()) && pending.trim()) {
      sentences.push(pending.trim().replace(/\s+/g, " "));
      pending = "";
    }
  }
  if (pending.trim()) sentences.push(pending.trim().replace(/\s+/g, " "));
  return sentences;
}

const contentWords = (sentence: string) =>
  (sentence.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [])
    .map((w) => w.replace(/’/g, "'"))
    .filter((w) => w.length > 1 && !englishStopwords.has(w));

function scoreSentences(sentences: string[]): number[] {
  const words = sentences.map(contentWords);
  const frequency = new Map<string, number>();
  for (const word of words.flat()) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  let top = 1;
  for (const count of frequency.values()) top = Math.max(top, count);
  return words.map((list) =>
    list.length ? list.reduce((sum, w) => sum + frequency.get(w)! / top, 0) / Math.sqrt(list.length) : 0,
  );
}
