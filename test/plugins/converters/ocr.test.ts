import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startTestService } from "../../helpers/service.ts";
import ocr from "../../../plugins/converters/ocr.ts";
import { closeOcrWorker } from "../../../plugins/converters/_ocr-worker.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import ocrEndpoint from "../../../plugins/converters/ocr.ts";

const service = await startTestService({ plugins: ["converters"] });
after(closeOcrWorker);

// 348x44 PNG, "HELLO WORLD 42" in black 28-pixel block capitals on white.
const helloPng = readFileSync(new URL("./fixtures/ocr-hello-world-42.png", import.meta.url));

const read = async (image: string) => {
  const out = await service.call(ocrEndpoint, { image });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

test("ocr: reads the text of a PNG, with its lines and boxes", async () => {
  const data = await read(helloPng.toString("base64"));
  assert.equal(data.text, "HELLO WORLD 42");
  assert.deepEqual([data.format, data.width, data.height], ["png", 348, 44]);
  assert.equal(data.lines.length, 1);
  assert.equal(data.lines[0].text, "HELLO WORLD 42");
  const { x0, y0, x1, y1 } = data.lines[0].bbox;
  assert.ok(x0 >= 0 && x0 < 20 && x1 > 320 && x1 <= 348, `x ${x0}-${x1}`);
  assert.ok(y0 >= 0 && y0 < 12 && y1 > 30 && y1 <= 44, `y ${y0}-${y1}`);
  assert.ok(data.confidence > 60 && data.confidence <= 100, `confidence ${data.confidence}`);
});

test("ocr: accepts a data: URL and reuses the worker for concurrent calls", async () => {
  const dataUrl = `data:image/png;base64,${helloPng.toString("base64")}`;
  const results = await Promise.all([read(dataUrl), read(helloPng.toString("base64url"))]);
  assert.deepEqual(
    results.map((r) => r.text),
    ["HELLO WORLD 42", "HELLO WORLD 42"],
  );
});

test("ocr: works again after the worker is closed", async () => {
  await closeOcrWorker();
  assert.equal((await read(helloPng.toString("base64"))).text, "HELLO WORLD 42");
});

test("ocr: the documented example is a real call", async () => {
  const out = await service.call(ocrEndpoint, ocr.example.input);
  assert.deepEqual(dataOf(out), ocr.example.output);
});

const pngWithSize = (width: number, height: number) => {
  const png = Buffer.from(helloPng);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
};
/** A JPEG's opening segments: SOI, an APP0 (JFIF) segment, then a baseline start-of-frame with the size. */
const jpegHeader = (width: number, height: number) =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1"),
    Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03]),
    Buffer.alloc(64),
  ]);

const rejected = [
  { name: "a GIF", image: Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"), message: /PNG or a JPEG/ },
  { name: "text that is not an image", image: Buffer.from("hello"), message: /PNG or a JPEG/ },
  { name: "a PNG wider than 4096 pixels", image: pngWithSize(5000, 44), message: /5000x44.*1 to 4096/ },
  { name: "a JPEG taller than 4096 pixels", image: jpegHeader(640, 4097), message: /640x4097/ },
  { name: "a PNG with zero height", image: pngWithSize(10, 0), message: /10x0/ },
  { name: "a truncated PNG", image: helloPng.subarray(0, 60), message: /could not be decoded/ },
  { name: "a JPEG header without image data", image: jpegHeader(64, 64), message: /could not be decoded/ },
];
for (const c of rejected) {
  test(`ocr: ${c.name} is a 400 naming image`, async () => {
    const out = await service.call(ocrEndpoint, { image: c.image.toString("base64") });
    assert.equal(out.status, 400, JSON.stringify(out.body));
    const error = errorOf(out);
    assert.match(error.message, c.message);
    assert.deepEqual(
      error.details!.issues!.map((i: any) => i.field),
      ["image"],
    );
  });
}

const bad = [
  { name: "missing image", query: "", field: "image" },
  { name: "characters outside base64", query: "image=not*base64", field: "image" },
  { name: "base64 over 100,000 characters", query: `image=${"A".repeat(100_001)}`, field: "image" },
];
for (const c of bad) {
  test(`ocr: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/ocr?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("ocr: valid input without payment is a 402", async () => {
  const res = await service.request(`/v1/ocr?image=${encodeURIComponent(helloPng.toString("base64"))}`);
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "20000");
});
