import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import sentiment from "../../../plugins/converters/sentiment.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import sentimentEndpoint from "../../../plugins/converters/sentiment.ts";

const service = await startTestService({ plugins: ["converters"] });

const filler = (n: number) => Array.from({ length: n }, () => "table").join(" ");

// AFINN-165: love +3, good +3, great +3, bad -3, hate -3, terrible -3.
const cases = [
  {
    name: "one positive word",
    text: "I love it",
    expected: { score: 3, comparative: 1, label: "positive", tokens: 3, positive: ["love"], negative: [] },
  },
  {
    name: "negation flips the sign",
    text: "This is not good",
    expected: { score: -3, comparative: -0.75, label: "negative", tokens: 4, positive: [], negative: ["good"] },
  },
  {
    name: "no known words is neutral",
    text: "The table is made of wood.",
    expected: { score: 0, comparative: 0, label: "neutral", tokens: 6, positive: [], negative: [] },
  },
  {
    name: "balanced words cancel out",
    text: "Great food, terrible service",
    expected: { score: 0, comparative: 0, label: "neutral", tokens: 4, positive: ["great"], negative: ["terrible"] },
  },
  {
    name: "repeated words are listed once, in order",
    text: "good bad good hate",
    expected: { score: 0, comparative: 0, label: "neutral", tokens: 4, positive: ["good"], negative: ["bad", "hate"] },
  },
  {
    name: "comparative 0.05 is the edge of positive",
    text: `good ${filler(59)}`,
    expected: { score: 3, comparative: 0.05, label: "positive", tokens: 60, positive: ["good"], negative: [] },
  },
  {
    name: "just under 0.05 is neutral",
    text: `good ${filler(60)}`,
    expected: { score: 3, comparative: 0.0492, label: "neutral", tokens: 61, positive: ["good"], negative: [] },
  },
  {
    name: "-0.05 is the edge of negative",
    text: `bad ${filler(59)}`,
    expected: { score: -3, comparative: -0.05, label: "negative", tokens: 60, positive: [], negative: ["bad"] },
  },
];

for (const c of cases) {
  test(`sentiment: ${c.name}`, async () => {
    const out = await service.call(sentimentEndpoint, { text: c.text });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out), c.expected);
  });
}

test("sentiment: the documented example is a real call", async () => {
  const out = await service.call(sentimentEndpoint, sentiment.example.input);
  assert.deepEqual(dataOf(out), sentiment.example.output);
});

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "empty text", query: "text=", field: "text" },
  { name: "text over 100,000 characters", query: `text=${"a".repeat(100_001)}`, field: "text" },
];
for (const c of bad) {
  test(`sentiment: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/sentiment?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("sentiment: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/sentiment?text=I%20love%20it");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "5000");
});
