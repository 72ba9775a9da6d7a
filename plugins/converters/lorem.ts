import * as v from "valibot";
import { LoremIpsum } from "lorem-ipsum";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const units = ["words", "sentences", "paragraphs"] as const;
type Unit = (typeof units)[number];
const maxCount: Record<Unit, number> = { words: 1000, sentences: 200, paragraphs: 50 };
const classic = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.";

const lorem = new LoremIpsum({ sentencesPerParagraph: { min: 4, max: 8 }, wordsPerSentence: { min: 6, max: 14 } });

/** The random text, opened with the classic words when asked, as a list of paragraphs. */
function generate(unit: Unit, count: number, classicStart: boolean): string[] {
  if (unit === "words") {
    const words = lorem.generateWords(count).split(" ");
    if (classicStart)
      classic
        .replace(/[,.]/g, "")
        .toLowerCase()
        .split(" ")
        .slice(0, count)
        .forEach((w, i) => (words[i] = w));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    return [words.join(" ")];
  }
  if (unit === "sentences") {
    const sentences = Array.from({ length: count }, () => lorem.generateSentences(1));
    if (classicStart) sentences[0] = classic;
    return [sentences.join(" ")];
  }
  const paragraphs = Array.from({ length: count }, () => lorem.generateParagraphs(1));
  if (classicStart) paragraphs[0] = paragraphs[0].replace(/^[^.]*\./, classic);
  return paragraphs;
}

export default defineEndpoint({
  name: "lorem",
  method: "GET",
  price: "$0.001",
  summary: "Generate lorem ipsum placeholder text by words, sentences or paragraphs",
  description:
    "Limits: 1,000 words, 200 sentences or 50 paragraphs per call. Paragraphs are separated by a blank line, or wrapped in <p> with format html.",
  input: v.object({
    units: v.optional(
      v.pipe(v.picklist(units), v.description("words, sentences or paragraphs (default)")),
      "paragraphs",
    ),
    count: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description("How many units")),
      1,
    ),
    format: v.optional(
      v.pipe(v.picklist(["plain", "html"]), v.description("plain text (default) or html paragraphs")),
      "plain",
    ),
    startWithLorem: v.optional(v.pipe(v.boolean(), v.description('Begin with "Lorem ipsum dolor sit amet"')), true),
  }),
  output: v.object({
    units: v.picklist(units),
    count: v.number(),
    text: v.string(),
    paragraphs: v.array(v.string()),
    wordCount: v.number(),
  }),
  example: {
    input: { units: "words", count: 5 },
    output: {
      units: "words",
      count: 5,
      text: "Lorem ipsum dolor sit amet",
      paragraphs: ["Lorem ipsum dolor sit amet"],
      wordCount: 5,
    },
  },
  handler({ input }) {
    if (input.count > maxCount[input.units]) {
      throw fieldError("count", `count is at most ${maxCount[input.units]} for ${input.units}`);
    }
    const paragraphs = generate(input.units, input.count, input.startWithLorem);
    const text = input.format === "html" ? paragraphs.map((p) => `<p>${p}</p>`).join("\n") : paragraphs.join("\n\n");
    const wordCount = paragraphs.reduce((n, p) => n + p.split(/\s+/).filter(Boolean).length, 0);
    return { units: input.units, count: input.count, text, paragraphs, wordCount };
  },
});
