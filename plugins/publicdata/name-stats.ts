import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";

/** What the code reads of Demografix's three answers (count 0 and null values when a name is unknown). */
const Genderize = v.object({
  count: v.number(),
  name: v.string(),
  gender: v.nullable(v.picklist(["male", "female"])),
  probability: v.number(),
});
const Agify = v.object({ count: v.number(), age: v.nullable(v.number()) });
const Nationalize = v.object({
  count: v.number(),
  country: v.array(v.object({ country_id: v.string(), probability: v.number() })),
});

export default defineEndpoint({
  name: "name-stats",
  method: "GET",
  price: "$0.01",
  summary: "What a first name suggests: likely gender with its probability, typical age, and most likely nationalities",
  description:
    "From Demografix's genderize.io, agify.io and nationalize.io (statistics over public profiles; optional keys UPSTREAM_GENDERIZE_KEY, " +
    "UPSTREAM_AGIFY_KEY, UPSTREAM_NATIONALIZE_KEY lift the keyless 100 names a day). `country` narrows gender and age to one country. " +
    "Each part carries the sample size it rests on; a name none of them has data for is a 404. These are population statistics, never " +
    "facts about a person.",
  input: v.object({
    name: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(40),
      v.regex(/^[A-Za-zÀ-ÖØ-öø-ÿĀ-ž' -]+$/, "a first name in letters"),
      v.description("First name, e.g. Peter"),
    ),
    country: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2}$/, "not an ISO 3166 alpha-2 code"),
        v.description("Country for gender and age, e.g. US"),
      ),
    ),
  }),
  output: v.object({
    name: v.string(),
    country: v.nullable(v.string()),
    gender: v.object({
      value: v.nullable(v.picklist(["male", "female"])),
      probability: v.number(),
      sample: v.pipe(v.number(), v.description("Profiles behind the estimate")),
    }),
    age: v.object({ value: v.pipe(v.nullable(v.number()), v.description("Typical age in years")), sample: v.number() }),
    nationalities: v.pipe(
      v.array(v.object({ country: v.pipe(v.string(), v.description("ISO 3166 alpha-2")), probability: v.number() })),
      v.description("Most likely first, worldwide"),
    ),
  }),
  example: {
    input: { name: "Peter" },
    output: {
      name: "peter",
      country: null,
      gender: { value: "male", probability: 1, sample: 1094417 },
      age: { value: 69, sample: 1094417 },
      nationalities: [
        { country: "AT", probability: 0.076 },
        { country: "DE", probability: 0.059 },
        { country: "SK", probability: 0.058 },
        { country: "DK", probability: 0.053 },
        { country: "HU", probability: 0.051 },
      ],
    },
  },
  cacheTtl: 30 * 24 * 3600,
  upstreams: ["genderize", "agify", "nationalize"],
  async handler({ input, upstream }) {
    const name = input.name.trim().toLowerCase();
    const country = input.country?.toUpperCase();
    const [gender, age, nationality] = await Promise.all([
      upstream("genderize").json("/", Genderize, { query: { name, country_id: country } }),
      upstream("agify").json("/", Agify, { query: { name, country_id: country } }),
      upstream("nationalize").json("/", Nationalize, { query: { name } }),
    ]);
    if (!gender.count && !age.count && !nationality.count) throw notFound(`No statistics for the name ${input.name}`);
    return {
      name: gender.name,
      country: country ?? null,
      gender: { value: gender.gender, probability: gender.probability, sample: gender.count },
      age: { value: age.age, sample: age.count },
      nationalities: nationality.country.map((c) => ({ country: c.country_id, probability: c.probability })),
    };
  },
});
