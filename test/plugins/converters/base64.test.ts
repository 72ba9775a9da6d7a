import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import base64Endpoint from "../../../plugins/converters/base64.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  { name: "encodes UTF-8 text", input: { text: "hello, world" }, result: "aGVsbG8sIHdvcmxk", bytes: 12 },
  { name: "encodes non-ASCII as UTF-8", input: { text: "é" }, result: "w6k=", bytes: 2 },
  { name: "encodes the standard alphabet", input: { text: "??>" }, result: "Pz8+", bytes: 3 },
  { name: "encodes URL-safe without padding", input: { text: "??>a", urlsafe: true }, result: "Pz8-YQ", bytes: 4 },
  { name: "encodes empty text", input: { text: "" }, result: "", bytes: 0 },
  { name: "decodes padded base64", input: { text: "w6k=", mode: "decode" }, result: "é", bytes: 2 },
  { name: "decodes without padding", input: { text: "aGk", mode: "decode" }, result: "hi", bytes: 2 },
  { name: "decodes the URL-safe alphabet", input: { text: "Pz8-", mode: "decode" }, result: "??>", bytes: 3 },
  { name: "ignores line breaks", input: { text: "aGVs\nbG8=", mode: "decode" }, result: "hello", bytes: 5 },
  {
    name: "reads a space as the + a query string turned into one",
    input: { text: "Pz8 ", mode: "decode" },
    result: "??>",
    bytes: 3,
  },
];

for (const c of cases) {
  test(`base64: ${c.name}`, async () => {
    const out = await service.call(base64Endpoint, c.input as InputOf<typeof base64Endpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.result, c.result);
    assert.equal(data.bytes, c.bytes);
    assert.equal(data.utf8Valid, true);
    assert.equal(data.hex, undefined);
  });
}

test("base64: bytes that are not UTF-8 come back as hex too", async () => {
  const out = await service.call(base64Endpoint, { text: "/w==", mode: "decode" });
  const data = dataOf(out);
  assert.equal(data.utf8Valid, false);
  assert.equal(data.hex, "ff");
  assert.equal(data.bytes, 1);
});

const undecodable = [
  { name: "a character outside both alphabets", text: "abc$" },
  { name: "a length no base64 can have", text: "abcde" },
  { name: "both alphabets mixed", text: "a+b-" },
  { name: "padding in the middle", text: "ab=c" },
];
for (const c of undecodable) {
  test(`base64: decoding ${c.name} is a 400 on text`, async () => {
    const out = await service.call(base64Endpoint, { text: c.text, mode: "decode" });
    assert.equal(out.status, 400);
    const body = out.body as any;
    assert.equal(body.error.code, "invalid_input");
    assert.deepEqual(
      body.error.details.issues.map((i: any) => i.field),
      ["text"],
    );
  });
}

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "unknown mode", query: "text=a&mode=encrypt", field: "mode" },
  { name: "urlsafe not a boolean", query: "text=a&urlsafe=maybe", field: "urlsafe" },
  { name: "text over 100,000 characters", query: `text=${"a".repeat(100_001)}`, field: "text" },
];
for (const c of bad) {
  test(`base64: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/base64?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("base64: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/base64?text=hi&mode=encode");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
