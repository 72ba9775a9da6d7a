import { createRequire } from "node:module";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/shared.ts";

interface LibEntry {
  char: string;
  keywords: string[];
  category: string;
}
/**
 * node-emoji and its own data set (emojilib, read directly for its keywords and categories; it ships no types),
 * loaded on the first call rather than at boot.
 */
const emojiData = lazy(async () => {
  const { find } = await import("node-emoji");
  const lib = (createRequire(import.meta.url)("emojilib") as { lib: Record<string, LibEntry> }).lib;
  return { find, lib, entries: Object.entries(lib).map(([name, e]) => ({ name, ...e })) };
});
type EmojiData = Awaited<ReturnType<typeof emojiData>>;

const skinTones: Record<string, string> = {
  "\u{1F3FB}": "light",
  "\u{1F3FC}": "medium-light",
  "\u{1F3FD}": "medium",
  "\u{1F3FE}": "medium-dark",
  "\u{1F3FF}": "dark",
};
const toneMarks = /[\u{1F3FB}-\u{1F3FF}]/gu;
const pictographic = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

const codepoints = (s: string) =>
  [...s].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
const graphemes = (s: string) =>
  [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(s)].map((g) => g.segment);

function describe({ find, lib }: EmojiData, emoji: string) {
  const tone = emoji.match(toneMarks)?.[0];
  const base = emoji.replace(toneMarks, "");
  const name = find(base)?.key ?? null;
  const parts = base.split("\u200D").filter((p) => p.replace(/\uFE0F/g, ""));
  return {
    emoji,
    name,
    shortcode: name ? `:${name}:` : null,
    keywords: name ? lib[name].keywords : [],
    category: name ? lib[name].category : null,
    codepoints: codepoints(emoji),
    skinTone: tone ? skinTones[tone] : null,
    components: parts.length > 1 ? parts.map((p) => find(p)?.key ?? null) : [],
  };
}

/** Every word of the query must hit a name part or keyword; exact hits rank above partial ones, the exact name first. */
function search({ entries }: EmojiData, query: string, limit: number) {
  const words = query
    .trim()
    .toLowerCase()
    .replace(/^:|:$/g, "")
    .split(/[\s_]+/)
    .filter(Boolean);
  const whole = words.join("_");
  const score = (e: EmojiData["entries"][number]) => {
    const terms = [...e.name.split("_"), ...e.keywords];
    let total = e.name === whole ? 10 : 0;
    for (const word of words) {
      const hit = terms.includes(word) ? 2 : terms.some((t) => t.includes(word)) ? 1 : 0;
      if (!hit) return 0;
      total += hit;
    }
    return total;
  };
  return entries
    .map((e) => ({ e, s: score(e) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s)
    .slice(0, limit)
    .map(({ e }) => ({ emoji: e.char, name: e.name, keywords: e.keywords, category: e.category }));
}

const described = v.object({
  emoji: v.string(),
  name: v.pipe(v.nullable(v.string()), v.description("emojilib name, null when the data set does not know the emoji")),
  shortcode: v.nullable(v.string()),
  keywords: v.array(v.string()),
  category: v.nullable(v.string()),
  codepoints: v.array(v.string()),
  skinTone: v.nullable(v.string()),
  components: v.pipe(v.array(v.nullable(v.string())), v.description("Names of the parts of a ZWJ sequence")),
});

export default defineEndpoint({
  name: "emoji",
  method: "GET",
  price: "$0.001",
  summary: "Find emoji by name or keyword, or describe the emoji in a text",
  description:
    "A query containing emoji describes each of them (name, shortcode, keywords, category, code points, skin tone); any other query searches names and keywords. The data set (emojilib 2.4, about 1,570 emoji) predates the newest Unicode versions.",
  input: v.object({
    q: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(100),
      v.description("A keyword or name such as cat or :thumbsup:, or one or more emoji"),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most results")),
      10,
    ),
  }),
  output: v.variant("mode", [
    v.object({
      mode: v.literal("search"),
      query: v.string(),
      count: v.number(),
      results: v.array(
        v.object({ emoji: v.string(), name: v.string(), keywords: v.array(v.string()), category: v.string() }),
      ),
    }),
    v.object({ mode: v.literal("describe"), count: v.number(), emojis: v.array(described) }),
  ]),
  example: {
    input: { q: "👍🏽" },
    output: {
      mode: "describe",
      count: 1,
      emojis: [
        {
          emoji: "👍🏽",
          name: "+1",
          shortcode: ":+1:",
          keywords: ["thumbsup", "yes", "awesome", "good", "agree", "accept", "cool", "hand", "like"],
          category: "people",
          codepoints: ["U+1F44D", "U+1F3FD"],
          skinTone: "medium",
          components: [],
        },
      ],
    },
  },
  async handler({ input }) {
    const data = await emojiData();
    const found = graphemes(input.q).filter((g) => pictographic.test(g));
    if (found.length) {
      const emojis = found.slice(0, input.limit).map((emoji) => describe(data, emoji));
      return { mode: "describe" as const, count: emojis.length, emojis };
    }
    const results = search(data, input.q, input.limit);
    return { mode: "search" as const, query: input.q, count: results.length, results };
  },
});
