import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import barcode from "../../../plugins/converters/barcode.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import barcodeEndpoint from "../../../plugins/converters/barcode.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: InputOf<typeof barcodeEndpoint>) => {
  const out = await service.call(barcodeEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  const png = Buffer.from(data.png.replace(/^data:image\/png;base64,/, ""), "base64");
  assert.equal(png.readUInt32BE(0), 0x89504e47, "a PNG signature");
  assert.deepEqual(
    [png.readUInt32BE(16), png.readUInt32BE(20)],
    [data.width, data.height],
    "width and height are the PNG's",
  );
  return data;
};

test("barcode: an EAN-13 is 95 modules wide at scale pixels per module", async () => {
  for (const scale of [1, 3]) {
    const data = await call({ text: "4006381333931", type: "ean13", scale, includeText: false });
    assert.equal(data.width, 95 * scale + 1); // bwip-js adds one pixel of anti-aliasing edge
  }
});

// Square 2D symbols are drawn two pixels per module at scale 1.
const squares = [
  { name: "QR code, version 1 (21 modules)", type: "qrcode", side: 21 },
  { name: "Data Matrix, 12x12 for five characters", type: "datamatrix", side: 12 },
];
for (const c of squares) {
  test(`barcode: ${c.name}`, async () => {
    const data = await call({ text: "hello", type: c.type as InputOf<typeof barcode>["type"], scale: 3 });
    assert.equal(data.width, c.side * 2 * 3);
    assert.equal(data.height, c.side * 2 * 3);
  });
}

const valid = [
  { name: "EAN-13 with its check digit", input: { text: "4006381333931", type: "ean13" } },
  { name: "EAN-13 without its check digit (computed)", input: { text: "400638133393", type: "ean13" } },
  { name: "UPC-A with its check digit", input: { text: "036000291452", type: "upca" } },
  { name: "ISBN-13 with hyphens", input: { text: "978-0-306-40615-7", type: "isbn" } },
  { name: "GS1-128 with a valid GTIN", input: { text: "(01)09521234543213(10)ABC", type: "gs1-128" } },
  { name: "Code 128 by default", input: { text: "Hello, world!" } },
  { name: "PDF417", input: { text: "PDF417 carries a few hundred characters", type: "pdf417" } },
  { name: "Aztec", input: { text: "hello", type: "azteccode" } },
];
for (const c of valid) {
  test(`barcode: ${c.name}`, async () => {
    const data = await call(c.input as InputOf<typeof barcode>);
    assert.equal(data.text, c.input.text);
    assert.equal(data.type, c.input.type ?? "code128");
    assert.ok(data.width > 0 && data.height > 0);
  });
}

test("barcode: taller bars and printed text make a taller image", async () => {
  const short = await call({ text: "4006381333931", type: "ean13", includeText: false, height: 10 });
  const tall = await call({ text: "4006381333931", type: "ean13", includeText: false, height: 20 });
  const withText = await call({ text: "4006381333931", type: "ean13", includeText: true, height: 10 });
  assert.ok(tall.height > short.height * 1.9, `${tall.height} vs ${short.height}`);
  assert.ok(withText.height > short.height);
});

test("barcode: the documented example is a real call", async () => {
  const out = await service.call(barcodeEndpoint, barcode.example.input);
  assert.deepEqual(dataOf(out), barcode.example.output);
});

const rejected = [
  {
    name: "wrong EAN-13 check digit",
    input: { text: "4006381333932", type: "ean13" },
    message: /Incorrect EAN-13 check digit/,
  },
  { name: "wrong UPC-A check digit", input: { text: "036000291453", type: "upca" }, message: /check digit/ },
  {
    name: "wrong ISBN check digit",
    input: { text: "978-0-306-40615-6", type: "isbn" },
    message: /ISBN-13 check digit/,
  },
  {
    name: "wrong GTIN checksum inside GS1-128",
    input: { text: "(01)09521234543214", type: "gs1-128" },
    message: /checksum/,
  },
  { name: "EAN-13 of the wrong length", input: { text: "12345", type: "ean13" }, message: /12 or 13 digits/ },
  { name: "lowercase in Code 39", input: { text: "abc", type: "code39" }, message: /capital letters/ },
];
for (const c of rejected) {
  test(`barcode: ${c.name} is a 400 naming text`, async () => {
    const out = await service.call("barcode", c.input);
    assert.equal(out.status, 400);
    const error = errorOf(out);
    assert.equal(error.code, "invalid_input");
    assert.match(error.message, c.message);
    assert.doesNotMatch(error.message, /bwipp/);
    assert.deepEqual(
      error.details!.issues!.map((i: any) => i.field),
      ["text"],
    );
  });
}

const bad = [
  { name: "missing text", query: "type=ean13", field: "text" },
  { name: "unknown symbology", query: "text=1&type=code11x", field: "type" },
  { name: "scale 0", query: "text=1&scale=0", field: "scale" },
  { name: "scale 11", query: "text=1&scale=11", field: "scale" },
  { name: "height 100", query: "text=1&height=100", field: "height" },
  { name: "includeText not a boolean", query: "text=1&includeText=maybe", field: "includeText" },
  { name: "text over 2000 characters", query: `text=${"1".repeat(2001)}`, field: "text" },
];
for (const c of bad) {
  test(`barcode: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/barcode?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("barcode: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/barcode?text=4006381333931&type=ean13");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "10000");
});
