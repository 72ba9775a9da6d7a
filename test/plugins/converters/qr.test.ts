import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import qr from "../../../plugins/converters/qr.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import qrEndpoint from "../../../plugins/converters/qr.ts";

const service = await startTestService({ plugins: ["converters"] });

const pngSize = (dataUrl: string) => {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");
  assert.equal(png.readUInt32BE(0), 0x89504e47, "a PNG signature");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
};

// Versions and capacities from the QR code standard (ISO/IEC 18004) tables.
const cases = [
  { name: "short text at level M", input: { text: "hi" }, ecc: "M", version: 1, modules: 21 },
  {
    name: "20 digits fit version 1 at M (numeric mode holds 34)",
    input: { text: "12345678901234567890" },
    ecc: "M",
    version: 1,
    modules: 21,
  },
  {
    name: "14 bytes fill version 2 at H",
    input: { text: "https://exa.co", ecc: "H" },
    ecc: "H",
    version: 2,
    modules: 25,
  },
  {
    name: "15 bytes need version 3 at H",
    input: { text: "https://exam.co", ecc: "H" },
    ecc: "H",
    version: 3,
    modules: 29,
  },
  {
    name: "2953 bytes fill version 40 at L",
    input: { text: "a".repeat(2953), ecc: "L" },
    ecc: "L",
    version: 40,
    modules: 177,
  },
];

for (const c of cases) {
  test(`qr: ${c.name}`, async () => {
    const out = await service.call(qrEndpoint, c.input as InputOf<typeof qrEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.ecc, c.ecc);
    assert.equal(data.version, c.version);
    assert.equal(data.modules, c.modules);
    assert.deepEqual(pngSize(data.png), { width: 256, height: 256 });
    assert.ok(data.svg.includes(`viewBox="0 0 ${c.modules + 8} ${c.modules + 8}"`), data.svg.slice(0, 200));
  });
}

test("qr: size, margin and colours shape the images", async () => {
  const out = await service.call(qrEndpoint, { text: "hi", size: 100, margin: 0, dark: "#ff0000", light: "00000000" });
  const data = dataOf(out);
  assert.deepEqual(pngSize(data.png), { width: 100, height: 100 });
  assert.ok(data.svg.includes('viewBox="0 0 21 21"'));
  assert.ok(data.svg.includes('stroke="#ff0000"'));
  assert.ok(data.svg.includes('width="100" height="100"'));
});

test("qr: the documented example is a real call", async () => {
  const out = await service.call(qrEndpoint, qr.example.input);
  assert.deepEqual(dataOf(out), qr.example.output);
});

test("qr: text over the capacity of the chosen level is a 400 naming text", async () => {
  const out = await service.call(qrEndpoint, { text: "a".repeat(1274), ecc: "H" });
  assert.equal(out.status, 400);
  const error = errorOf(out);
  assert.equal(error.code, "invalid_input");
  assert.equal(error.details!.issues![0].field, "text");
  assert.match(error.message, /too big.*level H/);
});

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "empty text", query: "text=", field: "text" },
  { name: "text over 2953 characters", query: `text=${"a".repeat(2954)}`, field: "text" },
  { name: "unknown error correction level", query: "text=hi&ecc=X", field: "ecc" },
  { name: "size below 64", query: "text=hi&size=10", field: "size" },
  { name: "fractional size", query: "text=hi&size=100.5", field: "size" },
  { name: "margin over 16", query: "text=hi&margin=17", field: "margin" },
  { name: "colour name instead of hex", query: "text=hi&dark=red", field: "dark" },
];
for (const c of bad) {
  test(`qr: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/qr?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("qr: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/qr?text=hi");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "5000");
});
