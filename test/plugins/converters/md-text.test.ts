import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "formatting removed, headings not shouted",
    input: { markdown: "# Notes\n\n**bold** _it_ `code` ~~del~~" },
    text: "Notes\n\nbold it code del",
  },
  {
    name: "links and images keep their text",
    input: { markdown: "See [the site](https://e.com) and ![the logo](https://e.com/l.png)." },
    text: "See the site and the logo.",
  },
  {
    name: "keepLinks appends URLs",
    input: { markdown: "See [the site](https://e.com) and ![the logo](https://e.com/l.png).", keepLinks: true },
    text: "See the site (https://e.com) and the logo (https://e.com/l.png).",
  },
  {
    name: "lists",
    input: { markdown: "- one\n- two\n\n1. first\n2. second" },
    text: " * one\n * two\n\n 1. first\n 2. second",
  },
  {
    name: "tables in aligned columns",
    input: { markdown: "| Name | Age |\n|---|---|\n| Ada | 36 |\n| Alan | 41 |" },
    text: "Name   Age\nAda    36\nAlan   41",
  },
  {
    name: "scripts and styles are dropped",
    input: { markdown: "Text <script>alert(1)</script> end\n\n<style>p{color:red}</style>" },
    text: "Text end",
  },
  { name: "code keeps its spacing", input: { markdown: "```\na  =  1\n```" }, text: "a  =  1" },
  { name: "empty markdown", input: { markdown: "" }, text: "" },
];

for (const c of cases) {
  test(`md-text: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("md-text", c.input)), { text: c.text });
  });
}

test("md-text: nesting too deep for the renderer is a 400", async () => {
  const out = await service.call("md-text", { markdown: "<div>".repeat(20_000) });
  assert.equal(expectHandler400(out, "markdown").message, "The Markdown is nested too deeply");
});

const bad = [
  { name: "missing markdown", query: "", field: "markdown" },
  { name: "keepLinks that is not a boolean", query: query({ markdown: "a", keepLinks: "sure" }), field: "keepLinks" },
  { name: "markdown over 100,000 characters", query: query({ markdown: "a".repeat(100_001) }), field: "markdown" },
];
for (const c of bad) {
  test(`md-text: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/md-text?${c.query}`), c.field);
  });
}

test("md-text: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/md-text?${query({ markdown: "# hi" })}`));
});
