import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** What the code reads of Free Dictionary API's answer. */
const Entries = v.array(
  v.object({
    word: v.string(),
    phonetic: v.nullish(v.string()),
    phonetics: v.nullish(v.array(v.object({ text: v.nullish(v.string()), audio: v.nullish(v.string()) }))),
    meanings: v.array(
      v.object({
        partOfSpeech: v.string(),
        definitions: v.array(v.object({ definition: v.string(), example: v.nullish(v.string()) })),
        synonyms: v.nullish(v.array(v.string())),
        antonyms: v.nullish(v.array(v.string())),
      }),
    ),
    license: v.nullish(v.object({ name: v.string(), url: v.string() })),
    sourceUrls: v.nullish(v.array(v.string())),
  }),
);

const https = (url: string) => (url.startsWith("//") ? `https:${url}` : url);
const unique = (items: string[]) => [...new Set(items)];

export default defineEndpoint({
  name: "dictionary",
  method: "GET",
  price: "$0.005",
  summary: "English definitions of a word: pronunciation, audio, parts of speech, definitions with examples, synonyms",
  description:
    "From the Free Dictionary API (dictionaryapi.dev, Wiktionary data, CC BY-SA 3.0). Entries for the same word are merged by part of speech, in the source's order. An unknown word is a 404.",
  input: v.object({
    word: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(64),
      v.regex(/^[A-Za-z\u00C0-\u024F' -]+$/, "must be a word (letters, apostrophes, hyphens, spaces)"),
      v.description("English word, e.g. serendipity"),
    ),
    maxDefinitions: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(20),
        v.description("Most definitions per part of speech"),
      ),
      5,
    ),
  }),
  output: v.object({
    word: v.string(),
    phonetic: v.nullable(v.pipe(v.string(), v.description("IPA"))),
    audio: v.nullable(v.pipe(v.string(), v.description("URL of a pronunciation recording"))),
    meanings: v.array(
      v.object({
        partOfSpeech: v.string(),
        definitions: v.array(v.object({ definition: v.string(), example: v.nullable(v.string()) })),
        synonyms: v.array(v.string()),
        antonyms: v.array(v.string()),
      }),
    ),
    sourceUrls: v.array(v.string()),
    licence: v.string(),
  }),
  example: {
    input: { word: "serendipity" },
    output: {
      word: "serendipity",
      phonetic: "/ˌsɛɹ.ənˈdɪp.ɪ.ti/",
      audio: "https://api.dictionaryapi.dev/media/pronunciations/en/serendipity-us.mp3",
      meanings: [
        {
          partOfSpeech: "noun",
          definitions: [
            {
              definition:
                "A combination of events which have come together by chance to make a surprisingly good or wonderful outcome.",
              example: null,
            },
            {
              definition:
                "An unsought, unintended, and/or unexpected, but fortunate, discovery and/or learning experience that happens by accident.",
              example: null,
            },
          ],
          synonyms: ["chance", "fluke"],
          antonyms: [],
        },
      ],
      sourceUrls: ["https://en.wiktionary.org/wiki/serendipity"],
      licence: "CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0)",
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["free-dictionary"],
  async handler({ input, upstream }) {
    const entries = await upstream("free-dictionary").json(
      `/entries/en/${encodeURIComponent(input.word.trim().toLowerCase())}`,
      Entries,
      { notFoundAs404: true },
    );
    const byPart = new Map<
      string,
      {
        partOfSpeech: string;
        definitions: { definition: string; example: string | null }[];
        synonyms: string[];
        antonyms: string[];
      }
    >();
    for (const meaning of entries.flatMap((e) => e.meanings)) {
      const part = byPart.get(meaning.partOfSpeech) ?? {
        partOfSpeech: meaning.partOfSpeech,
        definitions: [],
        synonyms: [],
        antonyms: [],
      };
      part.definitions.push(
        ...meaning.definitions.map((d) => ({ definition: d.definition, example: d.example ?? null })),
      );
      part.synonyms = unique([...part.synonyms, ...(meaning.synonyms ?? [])]);
      part.antonyms = unique([...part.antonyms, ...(meaning.antonyms ?? [])]);
      byPart.set(meaning.partOfSpeech, part);
    }
    const phonetics = entries.flatMap((e) => e.phonetics ?? []);
    const licence = entries.find((e) => e.license)?.license;
    return {
      word: entries[0]?.word ?? input.word,
      phonetic: entries.find((e) => e.phonetic)?.phonetic ?? phonetics.find((p) => p.text)?.text ?? null,
      audio: ((url) => (url ? https(url) : null))(phonetics.find((p) => p.audio)?.audio),
      meanings: [...byPart.values()].map((m) => ({ ...m, definitions: m.definitions.slice(0, input.maxDefinitions) })),
      sourceUrls: unique(entries.flatMap((e) => e.sourceUrls ?? [])),
      licence: licence ? `${licence.name} (${licence.url})` : "CC BY-SA 3.0 (Wiktionary)",
    };
  },
});
