import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import loremEndpoint from "../../../plugins/converters/lorem.ts";

const service = await startTestService({ plugins: ["converters"] });

async function lorem(input: object) {
  const out = await service.call(loremEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}
const words = (text: string) => text.split(/\s+/).filter(Boolean);

test("lorem: words open with the classic phrase", async () => {
  const data = await lorem({ units: "words", count: 5 });
  assert.equal(data.text, "Lorem ipsum dolor sit amet");
  assert.equal(data.wordCount, 5);
});

test("lorem: the exact number of words, random after the classic eight", async () => {
  const data = await lorem({ units: "words", count: 300 });
  assert.equal(words(data.text).length, 300);
  assert.equal(data.wordCount, 300);
  assert.match(data.text, /^Lorem ipsum dolor sit amet consectetur adipiscing elit [A-Za-z]/);
});

test("lorem: without the classic opening", async () => {
  const data = await lorem({ units: "words", count: 8, startWithLorem: false });
  assert.notEqual(data.text.toLowerCase(), "lorem ipsum dolor sit amet consectetur adipiscing elit");
  assert.match(data.text, /^[A-Z][a-z]+( [A-Za-z]+){7}$/);
});

test("lorem: sentences end with a full stop", async () => {
  const data = await lorem({ units: "sentences", count: 4 });
  assert.equal(data.text.match(/\./g)!.length, 4);
  assert.ok(data.text.startsWith("Lorem ipsum dolor sit amet, consectetur adipiscing elit. "));
  assert.equal(data.paragraphs.length, 1);
});

test("lorem: paragraphs are separated by a blank line", async () => {
  const data = await lorem({ units: "paragraphs", count: 3 });
  assert.equal(data.paragraphs.length, 3);
  assert.equal(data.text.split("\n\n").length, 3);
  assert.equal(data.wordCount, words(data.text).length);
});

test("lorem: html wraps each paragraph", async () => {
  const data = await lorem({ units: "paragraphs", count: 2, format: "html" });
  assert.match(data.text, /^<p>Lorem ipsum[^<]+<\/p>\n<p>[^<]+<\/p>$/);
});

const tooMany = [
  { units: "sentences", count: 201 },
  { units: "paragraphs", count: 51 },
];
for (const c of tooMany) {
  test(`lorem: ${c.count} ${c.units} is over the limit, a 400 on count`, async () => {
    const out = await service.call("lorem", c);
    assert.equal(out.status, 400);
    assert.equal(issuesOf(out)[0].field, "count");
  });
}

const bad = [
  { name: "count over 1000", query: "units=words&count=1001", field: "count" },
  { name: "count 0", query: "count=0", field: "count" },
  { name: "unknown units", query: "units=letters", field: "units" },
  { name: "unknown format", query: "format=markdown", field: "format" },
];
for (const c of bad) {
  test(`lorem: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/lorem?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("lorem: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/lorem?units=words&count=10");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
