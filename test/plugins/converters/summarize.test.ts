import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import summarize from "../../../plugins/converters/summarize.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import summarizeEndpoint from "../../../plugins/converters/summarize.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: InputOf<typeof summarizeEndpoint>) => {
  const out = await service.call(summarizeEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

// "cats" appears in three sentences, "sleep" in two; the other sentences share nothing.
const cats = [
  "Cats sleep most of the day.",
  "The weather was mild.",
  "Cats sleep in warm places and cats hunt at night.",
  "Traffic moved slowly.",
  "Many cats live indoors.",
].join(" ");

test("summarize: keeps the sentences made of the text's most frequent words, in reading order", async () => {
  const data = await call({ text: cats, sentences: 2 });
  assert.deepEqual(
    data.sentences.map((s: any) => s.index),
    [0, 2],
  );
  assert.equal(data.summary, "Cats sleep most of the day. Cats sleep in warm places and cats hunt at night.");
  assert.equal(data.sentenceCount, 5);
});

test("summarize: scores are the frequency sum over the square root of the content words", async () => {
  // Frequencies: cats 4 (max), sleep 2, everything else 1. Sentence 0: cats, sleep, day -> (1 + 0.5 + 0.25) / sqrt(3).
  const data = await call({ text: cats, sentences: 1 });
  assert.deepEqual(data.sentences, [
    {
      index: 2,
      text: "Cats sleep in warm places and cats hunt at night.",
      score: Math.round(((1 + 0.5 + 0.25 + 0.25 + 1 + 0.25 + 0.25) / Math.sqrt(7)) * 10_000) / 10_000,
    },
  ]);
  const all = await call({ text: cats, sentences: 5 });
  assert.equal(all.sentences[0].score, Math.round(((1 + 0.5 + 0.25) / Math.sqrt(3)) * 10_000) / 10_000);
});

test("summarize: asking for more sentences than there are returns them all", async () => {
  const data = await call({ text: "One idea. Another idea.", sentences: 5 });
  assert.equal(data.sentenceCount, 2);
  assert.equal(data.summary, "One idea. Another idea.");
});

test("summarize: abbreviations and decimals do not end a sentence", async () => {
  const data = await call({
    text: "Dr. Smith paid $3.50 for it, e.g. in cash. Mr. Jones disagreed! Was it fair?",
    sentences: 3,
  });
  assert.deepEqual(
    data.sentences.map((s: any) => s.text),
    ["Dr. Smith paid $3.50 for it, e.g. in cash.", "Mr. Jones disagreed!", "Was it fair?"],
  );
});

test("summarize: line breaks and runs of spaces are tidied inside sentences", async () => {
  const data = await call({ text: "First   line\ncontinues here.\n\nSecond paragraph.", sentences: 2 });
  assert.deepEqual(
    data.sentences.map((s: any) => s.text),
    ["First line continues here.", "Second paragraph."],
  );
});

test("summarize: ties keep the earlier sentence", async () => {
  const data = await call({ text: "Alpha beta. Gamma delta. Epsilon zeta.", sentences: 1 });
  assert.equal(data.sentences[0].index, 0);
});

test("summarize: the documented example is a real call", async () => {
  const out = await service.call(summarizeEndpoint, summarize.example.input);
  assert.deepEqual(dataOf(out), summarize.example.output);
});

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "zero sentences", query: "text=a&sentences=0", field: "sentences" },
  { name: "21 sentences", query: "text=a&sentences=21", field: "sentences" },
  { name: "fractional sentences", query: "text=a&sentences=1.5", field: "sentences" },
  { name: "text over 100,000 characters", query: `text=${"a".repeat(100_001)}`, field: "text" },
];
for (const c of bad) {
  test(`summarize: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/summarize?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("summarize: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/summarize?text=One.%20Two.");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "5000");
});
