import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/shared.ts";

/** The AFINN analyzer, its lexicon loaded on the first call rather than at boot. */
const analyzer = lazy(async () => new (await import("sentiment")).default());
const labels = ["positive", "negative", "neutral"] as const;
/** Comparative scores inside (-0.05, 0.05) count as neutral: a stray mild word in a long text is noise. */
const neutralBand = 0.05;

export default defineEndpoint({
  name: "sentiment",
  method: "GET",
  price: "$0.005",
  summary:
    "Score the sentiment of English text (AFINN-165 lexicon): score, comparative, label and the words behind them",
  description:
    "Each known word scores -5 to +5 (negations like 'not good' flip the sign); score is the sum and comparative the sum per token. " +
    `The label is positive at comparative >= ${neutralBand}, negative at <= -${neutralBand}, neutral between. English only; sarcasm is not detected.`,
  input: v.object({
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(100_000), v.description("English text")),
  }),
  output: v.object({
    score: v.pipe(v.number(), v.description("Sum of word scores")),
    comparative: v.pipe(v.number(), v.description("score divided by the number of tokens, rounded to 4 decimals")),
    label: v.picklist(labels),
    tokens: v.pipe(v.number(), v.description("Words counted")),
    positive: v.pipe(v.array(v.string()), v.description("Positive words, in order of first appearance")),
    negative: v.pipe(v.array(v.string()), v.description("Negative words, in order of first appearance")),
  }),
  example: {
    input: { text: "The support team was great, but the app crashes constantly and I hate it." },
    output: {
      score: 2,
      comparative: 0.1429,
      label: "positive",
      tokens: 14,
      positive: ["support", "great"],
      negative: ["hate"],
    },
  },
  async handler({ input }) {
    const result = (await analyzer()).analyze(input.text);
    const comparative = Math.round(result.comparative * 10_000) / 10_000;
    const label: (typeof labels)[number] =
      comparative >= neutralBand ? "positive" : comparative <= -neutralBand ? "negative" : "neutral";
    return {
      score: result.score,
      comparative,
      label,
      tokens: result.tokens.length,
      // The library collects words from the last token backwards.
      positive: [...new Set(result.positive.toReversed())],
      negative: [...new Set(result.negative.toReversed())],
    };
  },
});
