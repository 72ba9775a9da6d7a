import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const mixed =
  '<a x="1" y="true"><b>2</b><b>3</b><c/><d>  spaced  </d><e><![CDATA[<raw> & stuff]]></e><!-- c --><?pi x?></a>';

const cases = [
  {
    name: "attributes, repeated elements, CDATA; comments and instructions dropped",
    input: { xml: `<?xml version="1.0"?>${mixed}` },
    json: { a: { b: ["2", "3"], c: "", d: "spaced", e: "<raw> & stuff", "@x": "1", "@y": "true" } },
  },
  {
    name: "without attributes, values parsed, one element forced into an array",
    input: { xml: mixed, attributes: false, parseValues: true, alwaysArray: ["d"] },
    json: { a: { b: [2, 3], c: "", d: ["spaced"], e: "<raw> & stuff" } },
  },
  {
    name: "another attribute prefix",
    input: { xml: '<a id="1">t</a>', attributePrefix: "$" },
    json: { a: { "#text": "t", $id: "1" } },
  },
  {
    name: "predefined entities and character references",
    input: { xml: "<a>&lt;b&gt; &amp; &#65;&#x42;</a>" },
    json: { a: "<b> & AB" },
  },
  {
    name: "an internal entity is expanded",
    input: { xml: '<!DOCTYPE a [<!ENTITY greet "hello">]><a>&greet; world</a>' },
    json: { a: "hello world" },
  },
  {
    name: "nested entities are not expanded (no billion laughs)",
    input: {
      xml: '<!DOCTYPE l [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;</l>',
    },
    json: { l: "&c;" },
  },
  {
    name: "namespaces keep their prefix",
    input: { xml: '<ns:a xmlns:ns="u"><ns:b>1</ns:b></ns:a>' },
    json: { "ns:a": { "ns:b": "1", "@xmlns:ns": "u" } },
  },
];

for (const c of cases) {
  test(`xml2json: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("xml2json", c.input)), { json: c.json });
  });
}

const refused = [
  {
    name: "an external entity",
    xml: '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
    message: /External entities are not supported/,
  },
  {
    name: "an entity expanded past the length cap",
    xml: `<!DOCTYPE a [<!ENTITY x "${"x".repeat(900)}">]><a>${"&x;".repeat(200)}</a>`,
    message: /limit exceeded/,
  },
  {
    name: "a __proto__ element",
    xml: "<__proto__><polluted>yes</polluted></__proto__>",
    message: /prototype pollution/,
  },
];
for (const c of refused) {
  test(`xml2json: ${c.name} is a 400 on xml`, async () => {
    const issue = expectHandler400(await service.call("xml2json", { xml: c.xml }), "xml");
    assert.match(issue.message, c.message);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
}

test("xml2json: XML that is not well-formed is a 400 with its position", async () => {
  const issue = expectHandler400(await service.call("xml2json", { xml: "<a>\n<b></a>" }), "xml");
  assert.equal(issue.message, "Expected closing tag 'b' (opened in line 2, col 1) instead of closing tag 'a'.");
  assert.deepEqual([issue.line, issue.column], [2, 4]);
});

test("xml2json: text that is not XML is a 400", async () => {
  expectHandler400(await service.call("xml2json", { xml: "hello" }), "xml");
});

const bad = [
  { name: "missing xml", query: "", field: "xml" },
  {
    name: "more than 100 alwaysArray names",
    query: query({ xml: "<a/>", alwaysArray: Array.from({ length: 101 }, (_, i) => `t${i}`).join(",") }),
    field: "alwaysArray",
  },
  {
    name: "parseValues that is not a boolean",
    query: query({ xml: "<a/>", parseValues: "no way" }),
    field: "parseValues",
  },
  { name: "xml over 100,000 characters", query: query({ xml: "<a>".padEnd(100_001, "x") }), field: "xml" },
];
for (const c of bad) {
  test(`xml2json: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/xml2json?${c.query}`), c.field);
  });
}

test("xml2json: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/xml2json?${query({ xml: "<a>1</a>", alwaysArray: "a,b" })}`));
});
