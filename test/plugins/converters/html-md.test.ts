import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import htmlMd from "../../../plugins/converters/html-md.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import htmlMdEndpoint from "../../../plugins/converters/html-md.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "headings, emphasis and links",
    input: {
      html: '<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em> <a href="https://example.com/a">link</a>.</p>',
    },
    markdown: "## Title\n\nSome **bold** and _soft_ [link](https://example.com/a).",
  },
  {
    name: "setext headings on request",
    input: { html: "<h1>Big</h1><h2>Less</h2>", headingStyle: "setext" },
    markdown: "Big\n===\n\nLess\n----",
  },
  {
    name: "bullet and numbered lists",
    input: { html: "<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>" },
    markdown: "-   one\n-   two\n\n1.  first\n2.  second",
  },
  {
    name: "fenced code keeps its language",
    input: { html: '<pre><code class="language-js">const a = 1;\n</code></pre>' },
    markdown: "```js\nconst a = 1;\n```",
  },
  {
    name: "indented code on request",
    input: { html: "<pre><code>x = 1</code></pre>", codeBlockStyle: "indented" },
    markdown: "    x = 1",
  },
  {
    name: "inline code, images and entities",
    input: { html: '<p>Run <code>npm test</code> &amp; see <img src="/a.png" alt="chart"></p>' },
    markdown: "Run `npm test` & see ![chart](/a.png)",
  },
  { name: "strikethrough", input: { html: "<p><del>old</del> <s>gone</s> new</p>" }, markdown: "~~old~~ ~~gone~~ new" },
  {
    name: "a table with a header row",
    input: {
      html: "<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Tea</td><td>2</td></tr><tr><td>Cake</td><td>1</td></tr></tbody></table>",
    },
    markdown: "| Name | Qty |\n| --- | --- |\n| Tea | 2 |\n| Cake | 1 |",
  },
  {
    name: "table cells with pipes, breaks and inline markup",
    input: { html: "<table><tr><td>a|b</td><td>line<br>break</td></tr><tr><td><b>x</b></td><td></td></tr></table>" },
    markdown: "| a\\|b | line break |\n| --- | --- |\n| **x** |  |",
  },
  {
    name: "scripts, styles, forms and the head are dropped",
    input: {
      html: "<html><head><title>Page</title><style>p{color:red}</style></head><body><script>alert(1)</script><p>Kept</p><form><input name=q><button>Go</button></form><noscript>js off</noscript></body></html>",
    },
    markdown: "Kept",
  },
];

for (const c of cases) {
  test(`html-md: ${c.name}`, async () => {
    const out = await service.call(htmlMdEndpoint, c.input as InputOf<typeof htmlMdEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out), { markdown: c.markdown, chars: c.markdown.length });
  });
}

test("html-md: the documented example is a real call", async () => {
  const out = await service.call(htmlMdEndpoint, htmlMd.example.input);
  assert.deepEqual(dataOf(out), htmlMd.example.output);
});

test("html-md: plain text comes back as text", async () => {
  const out = await service.call(htmlMdEndpoint, { html: "just words" });
  assert.equal(dataOf(out).markdown, "just words");
});

const bad = [
  { name: "missing html", query: "", field: "html" },
  { name: "empty html", query: "html=", field: "html" },
  { name: "html over 100,000 characters", query: `html=${"a".repeat(100_001)}`, field: "html" },
  { name: "unknown heading style", query: "html=%3Cp%3Ex%3C%2Fp%3E&headingStyle=underline", field: "headingStyle" },
  { name: "unknown code block style", query: "html=%3Cp%3Ex%3C%2Fp%3E&codeBlockStyle=tabs", field: "codeBlockStyle" },
];
for (const c of bad) {
  test(`html-md: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/html-md?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("html-md: html and url together are a free 400 naming url; url alone is priced like html", async () => {
  const both = await service.request("/v1/html-md?html=%3Cp%3Ex%3C%2Fp%3E&url=https%3A%2F%2Fexample.com");
  assert.equal(both.status, 400);
  const body = await both.json();
  assert.deepEqual(
    body.error.details.issues.map((i: any) => i.field),
    ["url"],
  );
  const alone = await service.request("/v1/html-md?url=https%3A%2F%2Fexample.com");
  assert.equal(alone.status, 402);
});

test("html-md: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/html-md?html=%3Ch1%3EHi%3C%2Fh1%3E");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "10000");
});
