import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "headings, emphasis and links",
    input: { markdown: '# Hi\n\nSome **bold** and [a link](https://example.com "t").' },
    html: '<h1>Hi</h1>\n<p>Some <strong>bold</strong> and <a href="https://example.com" title="t">a link</a>.</p>\n',
  },
  {
    name: "scripts and their content are removed",
    input: { markdown: "Hello <script>alert(1)</script> world" },
    html: "<p>Hello  world</p>\n",
  },
  {
    name: "javascript: and protocol-relative links lose their href",
    input: { markdown: '[x](javascript:alert(1)) <a href="//evil.example">y</a> [m](mailto:a@b.co)' },
    html: '<p><a>x</a> <a>y</a> <a href="mailto:a@b.co">m</a></p>\n',
  },
  {
    name: "event handlers, styles and iframes are removed",
    input: {
      markdown:
        '<span style="color:red" onclick="x()">s</span> <iframe src="https://e.com"></iframe> <img src="https://e.com/a.png" onerror="x()">',
    },
    html: '<p><span>s</span>  <img src="https://e.com/a.png" /></p>\n',
  },
  {
    name: "an image with a data: URL is dropped",
    input: { markdown: 'a <img src="data:image/png;base64,AAAA"> b' },
    html: "<p>a  b</p>\n",
  },
  {
    name: "GFM tables keep their alignment",
    input: { markdown: "| a | b |\n|:-|-:|\n| 1 | 2 |" },
    html: '<table>\n<thead>\n<tr>\n<th align="left">a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td align="left">1</td>\n<td align="right">2</td>\n</tr>\n</tbody></table>\n',
  },
  {
    name: "GFM task lists and strikethrough",
    input: { markdown: "- [ ] todo\n- [x] ~~done~~" },
    html: '<ul>\n<li><input disabled type="checkbox" /> todo</li>\n<li><input checked disabled type="checkbox" /> <del>done</del></li>\n</ul>\n',
  },
  {
    name: "other inputs are removed",
    input: { markdown: 'a <input type="text" value="x"> b' },
    html: "<p>a  b</p>\n",
  },
  {
    name: "code blocks keep their language class and escape",
    input: { markdown: "```js\nconst a = 1 < 2;\n```" },
    html: '<pre><code class="language-js">const a = 1 &lt; 2;\n</code></pre>\n',
  },
  {
    name: "without GFM a table is a paragraph",
    input: { markdown: "| a | b |\n|-|-|\n| 1 | 2 |", gfm: false },
    html: "<p>| a | b |\n|-|-|\n| 1 | 2 |</p>\n",
  },
  {
    name: "breaks turns line breaks into <br />",
    input: { markdown: "one\ntwo", breaks: true },
    html: "<p>one<br />two</p>\n",
  },
  { name: "single line breaks stay by default", input: { markdown: "one\ntwo" }, html: "<p>one\ntwo</p>\n" },
  { name: "empty markdown", input: { markdown: "" }, html: "" },
];

for (const c of cases) {
  test(`markdown: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("markdown", c.input)), { html: c.html });
  });
}

test("markdown: crafted emphasis that would render for minutes is a 400 after the deadline", async () => {
  const started = Date.now();
  const out = await service.call("markdown", { markdown: `${"*a ".repeat(15_000)}b${"* ".repeat(15_000)}` });
  assert.match(expectHandler400(out, "markdown").message, /took longer than 2000 ms/);
  assert.ok(Date.now() - started < 10_000);
});

test("markdown: renders again after a worker was stopped", async () => {
  assert.deepEqual(dataOf(await service.call("markdown", { markdown: "*ok*" })), { html: "<p><em>ok</em></p>\n" });
});

test("markdown: concurrent calls each get their own answer", async () => {
  const outs = await Promise.all(Array.from({ length: 8 }, (_, i) => service.call("markdown", { markdown: `# ${i}` })));
  assert.deepEqual(
    outs.map((o) => dataOf(o).html),
    Array.from({ length: 8 }, (_, i) => `<h1>${i}</h1>\n`),
  );
});

const bad = [
  { name: "missing markdown", query: "", field: "markdown" },
  { name: "gfm that is not a boolean", query: query({ markdown: "a", gfm: "maybe" }), field: "gfm" },
  { name: "markdown over 100,000 characters", query: query({ markdown: "a".repeat(100_001) }), field: "markdown" },
];
for (const c of bad) {
  test(`markdown: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/markdown?${c.query}`), c.field);
  });
}

test("markdown: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/markdown?${query({ markdown: "# hi" })}`));
});
