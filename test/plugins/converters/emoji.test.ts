import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import emojiEndpoint from "../../../plugins/converters/emoji.ts";

const service = await startTestService({ plugins: ["converters"] });

async function emoji(input: InputOf<typeof emojiEndpoint>) {
  const out = await service.call(emojiEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}

const searches = [
  { name: "an exact name ranks first", q: "cat", first: "🐱", includes: ["😺", "😸"] },
  { name: "a keyword found in no name", q: "meow", first: "🐱", includes: [] },
  { name: "a shortcode with colons", q: ":thumbsup:", first: "👍", includes: [] },
  { name: "a keyword", q: "pizza", first: "🍕", includes: [] },
  { name: "several words must all match", q: "smiling face", first: "🙂", includes: ["🥰"] },
];
for (const c of searches) {
  test(`emoji: search by ${c.name}`, async () => {
    const data = await emoji({ q: c.q });
    assert.equal(data.mode, "search");
    assert.equal(data.results[0].emoji, c.first, JSON.stringify(data.results.map((r: any) => r.emoji)));
    for (const e of c.includes)
      assert.ok(
        data.results.some((r: any) => r.emoji === e),
        e,
      );
    assert.equal(data.count, data.results.length);
  });
}

test("emoji: search respects limit and reports no match as empty", async () => {
  const limited = await emoji({ q: "face", limit: 3 });
  assert.ok(limited.mode === "search");
  assert.equal(limited.results.length, 3);
  assert.deepEqual(await emoji({ q: "qwertyzzz" }), { mode: "search", query: "qwertyzzz", count: 0, results: [] });
});

test("emoji: describes an emoji with its skin tone", async () => {
  const data = await emoji({ q: "👍🏾" });
  assert.equal(data.mode, "describe");
  assert.deepEqual(data.emojis[0], {
    emoji: "👍🏾",
    name: "+1",
    shortcode: ":+1:",
    keywords: ["thumbsup", "yes", "awesome", "good", "agree", "accept", "cool", "hand", "like"],
    category: "people",
    codepoints: ["U+1F44D", "U+1F3FE"],
    skinTone: "medium-dark",
    components: [],
  });
});

test("emoji: describes each emoji in a text, ZWJ sequences, flags and keycaps included", async () => {
  const data = await emoji({ q: "hi 👨‍👩‍👧 and 🇫🇷 or 1️⃣ ❤️" });
  assert.ok(data.mode === "describe");
  assert.deepEqual(
    data.emojis.map((e: any) => [e.name, e.components]),
    [
      ["family_man_woman_girl", ["man", "woman", "girl"]],
      ["fr", []],
      ["one", []],
      ["heart", []],
    ],
  );
  assert.deepEqual(data.emojis[1].codepoints, ["U+1F1EB", "U+1F1F7"]);
});

test("emoji: an emoji newer than the data set is described by code points only", async () => {
  const data = await emoji({ q: "🫠" });
  assert.ok(data.mode === "describe");
  assert.deepEqual(data.emojis[0], {
    emoji: "🫠",
    name: null,
    shortcode: null,
    keywords: [],
    category: null,
    codepoints: ["U+1FAE0"],
    skinTone: null,
    components: [],
  });
});

const bad = [
  { name: "missing q", query: "", field: "q" },
  { name: "q over 100 characters", query: `q=${"a".repeat(101)}`, field: "q" },
  { name: "limit over 50", query: "q=cat&limit=51", field: "limit" },
];
for (const c of bad) {
  test(`emoji: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/emoji?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("emoji: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/emoji?q=cat");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
