import * as v from "valibot";
import readingTime from "reading-time";
import { syllable } from "syllable";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText } from "./_json.ts";
import { englishSegmenter, segmentsOf } from "./_segments.ts";

const count = (iterable: Iterable<unknown>) => {
  let n = 0;
  for (const _ of iterable) n++;
  return n;
};
/** The syllable counter is quadratic in a word's length: a "word" longer than any English one (a hash, a run of letters) is counted in pieces. */
const syllablesOf = (word: string) => {
  let n = 0;
  for (let i = 0; i < word.length; i += 48) n += syllable(word.slice(i, i + 48));
  return n;
};
const to2 = (x: number) => Math.round(x * 100) / 100;

export default defineEndpoint({
  name: "text-stats",
  method: "GET",
  price: "$0.005",
  summary: "Count characters, words, sentences and paragraphs; estimate reading time and Flesch readability",
  description:
    "Words and sentences follow Unicode segmentation (any language). Syllables and the Flesch scores are " +
    "English formulas; they are null for text without words.",
  input: v.object({
    text: documentText("Text, at most 100,000 characters"),
    wordsPerMinute: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(50),
        v.maxValue(1000),
        v.description("Reading speed for the time estimate"),
      ),
      200,
    ),
  }),
  output: v.object({
    characters: v.pipe(v.number(), v.description("User-perceived characters (grapheme clusters)")),
    charactersNoSpaces: v.number(),
    words: v.number(),
    sentences: v.number(),
    paragraphs: v.pipe(v.number(), v.description("Blocks separated by blank lines")),
    syllables: v.number(),
    averageWordLength: v.pipe(v.number(), v.description("Characters per word")),
    averageSentenceLength: v.pipe(v.number(), v.description("Words per sentence")),
    readingTime: v.object({ minutes: v.number(), text: v.string() }),
    fleschReadingEase: v.pipe(
      v.nullable(v.number()),
      v.description("206.835 - 1.015 words/sentence - 84.6 syllables/word; higher is easier"),
    ),
    fleschKincaidGrade: v.pipe(v.nullable(v.number()), v.description("US school grade level")),
  }),
  example: {
    input: { text: "The cat sat on the mat. It was happy.\n\nThen it slept.", wordsPerMinute: 200 },
    output: {
      characters: 53,
      charactersNoSpaces: 41,
      words: 12,
      sentences: 3,
      paragraphs: 2,
      syllables: 13,
      averageWordLength: 3.17,
      averageSentenceLength: 4,
      readingTime: { minutes: 0.06, text: "1 min read" },
      fleschReadingEase: 111.13,
      fleschKincaidGrade: -1.25,
    },
  },
  handler({ input }) {
    const { text } = input;
    const words = [...segmentsOf(englishSegmenter("word"), text)].filter((s) => s.isWordLike).map((s) => s.segment);
    const sentences = [...segmentsOf(englishSegmenter("sentence"), text)].filter((s) =>
      /[\p{L}\p{N}]/u.test(s.segment),
    ).length;
    const syllables = words.reduce((sum, word) => sum + (/\p{L}/u.test(word) ? syllablesOf(word) : 0), 0);
    const wordChars = words.reduce((sum, word) => sum + count(segmentsOf(englishSegmenter("grapheme"), word)), 0);
    const wordsPerSentence = sentences ? words.length / sentences : 0;
    const syllablesPerWord = words.length ? syllables / words.length : 0;
    const time = readingTime(text, { wordsPerMinute: input.wordsPerMinute });
    return {
      characters: count(segmentsOf(englishSegmenter("grapheme"), text)),
      charactersNoSpaces: count(segmentsOf(englishSegmenter("grapheme"), text.replace(/\s+/g, ""))),
      words: words.length,
      sentences,
      paragraphs: text.split(/\n\s*\n/).filter((p) => p.trim() !== "").length,
      syllables,
      averageWordLength: words.length ? to2(wordChars / words.length) : 0,
      averageSentenceLength: to2(wordsPerSentence),
      readingTime: { minutes: to2(time.minutes), text: time.text },
      fleschReadingEase: words.length ? to2(206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord) : null,
      fleschKincaidGrade: words.length ? to2(0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59) : null,
    };
  },
});
