import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

test("text-stats: counts and readability of a short text", async () => {
  assert.deepEqual(
    dataOf(await service.call("text-stats", { text: "The cat sat on the mat. It was happy.\n\nThen it slept." })),
    {
      characters: 53,
      charactersNoSpaces: 41,
      words: 12,
      sentences: 3,
      paragraphs: 2,
      syllables: 13,
      averageWordLength: 3.17,
      averageSentenceLength: 4,
      readingTime: { minutes: 0.06, text: "1 min read" },
      // 206.835 - 1.015 x 12/3 - 84.6 x 13/12
      fleschReadingEase: 111.13,
      // 0.39 x 12/3 + 11.8 x 13/12 - 15.59
      fleschKincaidGrade: -1.25,
    },
  );
});

test("text-stats: empty text", async () => {
  assert.deepEqual(dataOf(await service.call("text-stats", { text: "" })), {
    characters: 0,
    charactersNoSpaces: 0,
    words: 0,
    sentences: 0,
    paragraphs: 0,
    syllables: 0,
    averageWordLength: 0,
    averageSentenceLength: 0,
    readingTime: { minutes: 0, text: "0 min read" },
    fleschReadingEase: null,
    fleschKincaidGrade: null,
  });
});

test("text-stats: an emoji with a skin tone is one character and no word", async () => {
  const data = dataOf(await service.call("text-stats", { text: "👍🏽 ok" }));
  assert.equal(data.characters, 4);
  assert.equal(data.charactersNoSpaces, 3);
  assert.equal(data.words, 1);
});

test("text-stats: blank lines, however many, separate paragraphs", async () => {
  const data = dataOf(await service.call("text-stats", { text: "Hello.\n\n\n\nWorld!\n \nAgain?" }));
  assert.equal(data.paragraphs, 3);
  assert.equal(data.sentences, 3);
  assert.equal(data.words, 3);
});

test("text-stats: a contraction is one word", async () => {
  const data = dataOf(await service.call("text-stats", { text: "Don't stop." }));
  assert.equal(data.words, 2);
});

test("text-stats: reading time follows wordsPerMinute", async () => {
  const text = "word ".repeat(400);
  assert.deepEqual(dataOf(await service.call("text-stats", { text })).readingTime, { minutes: 2, text: "2 min read" });
  assert.deepEqual(dataOf(await service.call("text-stats", { text, wordsPerMinute: 400 })).readingTime, {
    minutes: 1,
    text: "1 min read",
  });
});

test("text-stats: harder words read as harder", async () => {
  const easy = dataOf(await service.call("text-stats", { text: "The dog ran. The sun is hot." }));
  const hard = dataOf(
    await service.call("text-stats", {
      text: "Institutional considerations necessitate comprehensive organizational restructuring.",
    }),
  );
  assert.ok(easy.fleschReadingEase > 90, String(easy.fleschReadingEase));
  assert.ok(hard.fleschReadingEase < 0, String(hard.fleschReadingEase));
  assert.ok(hard.fleschKincaidGrade > easy.fleschKincaidGrade);
});

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "wordsPerMinute under 50", query: query({ text: "a", wordsPerMinute: 10 }), field: "wordsPerMinute" },
  {
    name: "wordsPerMinute that is not an integer",
    query: query({ text: "a", wordsPerMinute: 200.5 }),
    field: "wordsPerMinute",
  },
  { name: "text over 100,000 characters", query: query({ text: "a".repeat(100_001) }), field: "text" },
];
for (const c of bad) {
  test(`text-stats: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/text-stats?${c.query}`), c.field);
  });
}

test("text-stats: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/text-stats?${query({ text: "Hello there." })}`));
});
