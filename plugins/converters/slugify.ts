import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/shared.ts";

/** @sindresorhus/slugify builds its transliteration tables when loaded: on the first call rather than at boot. */
const slugifier = lazy(async () => (await import("@sindresorhus/slugify")).default);

/** Cuts at the last separator that fits, so a word is never split in half when that can be helped. */
function shorten(slug: string, max: number | undefined, separator: string): string {
  if (max === undefined || slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const lastBreak = separator ? cut.lastIndexOf(separator) : -1;
  return lastBreak > 0 ? cut.slice(0, lastBreak) : cut;
}

export default defineEndpoint({
  name: "slugify",
  method: "GET",
  price: "$0.001",
  summary: "Turn text into a URL slug, transliterating accents and symbols",
  description:
    "Transliterates accents and symbols (ü -> ue, & -> and, ♥ -> love; locale picks language rules such as sv: å -> a), splits camelCase and drops everything else that is not a Latin letter or digit, so a text with no Latin equivalent gives an empty slug.",
  input: v.object({
    text: v.pipe(v.string(), v.maxLength(10_000), v.description("Text to slugify")),
    separator: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(3),
        v.regex(/^[-_.~]*$/, "Use -, _, . or ~ (URL-safe)"),
        v.description("Word separator"),
      ),
      "-",
    ),
    lowercase: v.optional(v.pipe(v.boolean(), v.description("Lowercase the slug")), true),
    decamelize: v.optional(v.pipe(v.boolean(), v.description("Split camelCase words: fooBar -> foo-bar")), true),
    locale: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/),
        v.maxLength(20),
        v.description("Language for transliteration, e.g. de or sv"),
      ),
    ),
    maxLength: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(1000),
        v.description("Longest slug, cut at a separator"),
      ),
    ),
  }),
  output: v.object({ slug: v.string(), length: v.number() }),
  example: {
    input: { text: "Déjà Vu & Crème Brûlée fooBar" },
    output: { slug: "deja-vu-and-creme-brulee-foo-bar", length: 32 },
  },
  async handler({ input }) {
    const slugify = await slugifier();
    const full = slugify(input.text, {
      separator: input.separator,
      lowercase: input.lowercase,
      decamelize: input.decamelize,
      locale: input.locale,
    });
    const slug = shorten(full, input.maxLength, input.separator);
    return { slug, length: slug.length };
  },
});
