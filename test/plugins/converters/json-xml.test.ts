import { test } from "node:test";
import assert from "node:assert/strict";
import { XMLValidator } from "fast-xml-parser";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });
const compact = { pretty: false, declaration: false };

const cases = [
  {
    name: "attributes, text escaping and repeated elements, pretty with a declaration",
    input: { json: '{"book":{"@id":"7","title":"Dune & more","tags":["sf","classic"]}}', root: "library" },
    xml: '<?xml version="1.0" encoding="UTF-8"?>\n<library>\n  <book id="7">\n    <title>Dune &amp; more</title>\n    <tags>sf</tags>\n    <tags>classic</tags>\n  </book>\n</library>\n',
  },
  {
    name: "a top-level array becomes items",
    input: { json: '[{"a":1},{"a":2}]', ...compact },
    xml: "<root><item><a>1</a></item><item><a>2</a></item></root>",
  },
  {
    name: "arrays inside arrays become items",
    input: { json: '{"d":[[1,2],[3]]}', ...compact },
    xml: "<root><d><item>1</item><item>2</item></d><d><item>3</item></d></root>",
  },
  {
    name: "names repaired",
    input: { json: '{"1st":1,"a b":2,"ok-é":3,"":4}', ...compact },
    xml: "<root><_1st>1</_1st><a_b>2</a_b><ok-é>3</ok-é><_>4</_></root>",
  },
  {
    name: "text, quotes and characters XML cannot carry",
    input: { json: '{"t":"a < b \\"q\\" \\u0001 \\ud800 ]]>"}', ...compact },
    xml: "<root><t>a &lt; b &quot;q&quot; \uFFFD \uFFFD ]]&gt;</t></root>",
  },
  {
    name: "#text next to attributes",
    input: { json: '{"x":{"@y":true,"#text":"t"}}', ...compact },
    xml: '<root><x y="true">t</x></root>',
  },
  { name: "a scalar document", input: { json: "5", ...compact }, xml: "<root>5</root>" },
  {
    name: "null, empty object and empty array",
    input: { json: '{"a":null,"c":{},"b":[]}', ...compact },
    xml: "<root><a/><c></c></root>",
  },
  {
    name: "another attribute prefix",
    input: { json: '{"$id":1,"@x":2}', root: "r", attributePrefix: "$", ...compact },
    xml: '<r id="1"><_x>2</_x></r>',
  },
  {
    name: "an object as attribute value is JSON text",
    input: { json: '{"@meta":{"k":1}}', ...compact },
    xml: '<root meta="{&quot;k&quot;:1}"></root>',
  },
  {
    name: "reserved JavaScript names are plain element names",
    input: { json: '{"__proto__":{"constructor":1}}', ...compact },
    xml: "<root><__proto__><constructor>1</constructor></__proto__></root>",
  },
];

for (const c of cases) {
  test(`json-xml: ${c.name}`, async () => {
    const { xml } = dataOf(await service.call("json-xml", c.input));
    assert.equal(xml, c.xml);
    assert.equal(XMLValidator.validate(xml), true);
  });
}

test("json-xml: the output reads back through xml2json", async () => {
  const json = '{"order":{"@id":"42","line":[{"sku":"a","qty":"1"},{"sku":"b","qty":"2"}],"note":"x & y"}}';
  const { xml } = dataOf(await service.call("json-xml", { json, root: "doc" }));
  const back = dataOf(await service.call("xml2json", { xml }));
  assert.deepEqual(back.json, { doc: JSON.parse(json) });
});

test("json-xml: a document that is not JSON is a 400 on json", async () => {
  const issue = expectHandler400(await service.call("json-xml", { json: '{"a":}' }), "json");
  assert.deepEqual([issue.line, issue.column], [1, 6]);
});

const bad = [
  { name: "missing json", query: "", field: "json" },
  { name: "a root that is not an XML name", query: query({ json: "1", root: "1abc" }), field: "root" },
  { name: "an empty attributePrefix", query: query({ json: "1", attributePrefix: "" }), field: "attributePrefix" },
  { name: "pretty that is not a boolean", query: query({ json: "1", pretty: "very" }), field: "pretty" },
];
for (const c of bad) {
  test(`json-xml: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/json-xml?${c.query}`), c.field);
  });
}

test("json-xml: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/json-xml?${query({ json: '{"a":1}' })}`));
});
