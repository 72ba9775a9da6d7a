import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import morseEndpoint from "../../../plugins/converters/morse.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "encodes letters and words",
    input: { text: "SOS help" },
    direction: "encode",
    result: "... --- ... / .... . .-.. .--.",
    unknown: [],
  },
  {
    name: "encodes digits and ITU punctuation",
    input: { text: "a1.@" },
    direction: "encode",
    result: ".- .---- .-.-.- .--.-.",
    unknown: [],
  },
  { name: "encodes the accented E", input: { text: "é" }, direction: "encode", result: "..-..", unknown: [] },
  {
    name: "leaves out and lists characters ITU does not define",
    input: { text: "hi! ♥" },
    direction: "encode",
    result: ".... ..",
    unknown: ["!", "♥"],
  },
  {
    name: "decodes with slashes between words",
    input: { text: "... --- ... / .... . .-.. .--." },
    direction: "decode",
    result: "SOS HELP",
    unknown: [],
  },
  {
    name: "decodes with two spaces or a bar between words",
    input: { text: ".- -...  -.-.|-.." },
    direction: "decode",
    result: "AB C D",
    unknown: [],
  },
  {
    name: "reads typographic dots and dashes",
    input: { text: "·−  −−−" },
    direction: "decode",
    result: "A O",
    unknown: [],
  },
  {
    name: "marks unknown codes",
    input: { text: ".- ........ -" },
    direction: "decode",
    result: "A\uFFFDT",
    unknown: ["........"],
  },
  {
    name: "a forced direction wins over auto",
    input: { text: "-.-", direction: "encode" },
    direction: "encode",
    result: "-....- .-.-.- -....-",
    unknown: [],
  },
];
for (const c of cases) {
  test(`morse: ${c.name}`, async () => {
    const out = await service.call(morseEndpoint, c.input as InputOf<typeof morseEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out), { direction: c.direction, result: c.result, unknown: c.unknown });
  });
}

test("morse: every ITU character survives the round trip", async () => {
  const text = "THE QUICK BROWN FOX JUMPS OVER 13 LAZY DOGS. (É=+?) 'A/B' \"C-D\", @E: 0";
  const encoded = dataOf(await service.call(morseEndpoint, { text })).result;
  const decoded = dataOf(await service.call(morseEndpoint, { text: encoded }));
  assert.deepEqual(decoded, { direction: "decode", result: text, unknown: [] });
});

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "unknown direction", query: "text=a&direction=both", field: "direction" },
  { name: "text over 10,000 characters", query: `text=${"a".repeat(10_001)}`, field: "text" },
];
for (const c of bad) {
  test(`morse: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/morse?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("morse: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/morse?text=sos");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
