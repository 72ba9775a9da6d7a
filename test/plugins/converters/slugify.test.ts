import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import slugifyEndpoint from "../../../plugins/converters/slugify.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "transliterates and joins with dashes",
    input: { text: "Déjà Vu & Crème Brûlée" },
    slug: "deja-vu-and-creme-brulee",
  },
  { name: "splits camelCase", input: { text: "fooBarBaz" }, slug: "foo-bar-baz" },
  { name: "keeps camelCase whole when asked", input: { text: "fooBar", decamelize: false }, slug: "foobar" },
  {
    name: "a custom separator and case",
    input: { text: "Hello World", separator: "_", lowercase: false },
    slug: "Hello_World",
  },
  { name: "German umlauts", input: { text: "Ärger über Öl" }, slug: "aerger-ueber-oel" },
  { name: "Swedish rules with a locale", input: { text: "Räksmörgås", locale: "sv" }, slug: "raksmorgas" },
  { name: "punctuation and extra spaces collapse", input: { text: "  --Hello,   world!!--  " }, slug: "hello-world" },
  { name: "text with no Latin equivalent gives an empty slug", input: { text: "日本語" }, slug: "" },
  { name: "maxLength cuts at a separator", input: { text: "the quick brown fox", maxLength: 12 }, slug: "the-quick" },
  {
    name: "maxLength inside one long word cuts the word",
    input: { text: "supercalifragilistic", maxLength: 5 },
    slug: "super",
  },
];
for (const c of cases) {
  test(`slugify: ${c.name}`, async () => {
    const out = await service.call(slugifyEndpoint, c.input);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out), { slug: c.slug, length: c.slug.length });
  });
}

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "a separator that is not URL-safe", query: "text=a+b&separator=%2F", field: "separator" },
  { name: "maxLength 0", query: "text=a&maxLength=0", field: "maxLength" },
  { name: "a malformed locale", query: "text=a&locale=ENGLISH", field: "locale" },
  { name: "text over 10,000 characters", query: `text=${"a".repeat(10_001)}`, field: "text" },
];
for (const c of bad) {
  test(`slugify: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/slugify?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("slugify: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/slugify?text=Hello%20World");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
