import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import hashEndpoint from "../../../plugins/converters/hash.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "sha256 by default",
    input: { text: "hi" },
    hex: "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4",
  },
  {
    name: "keccak256",
    input: { text: "hi", algo: "keccak256" },
    hex: "7624778dedc75f8b322b9fa1632a610d40b85e106c7d9bf0e743a9ce291b9c6f",
  },
  { name: "md5", input: { text: "hi", algo: "md5" }, hex: "49f68a5c8493ec2c0bf489821c21fc3b" },
  { name: "empty text", input: { text: "" }, hex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
  { name: "utf-8 text", input: { text: "é", algo: "sha1" }, hex: "bf15be717ac1b080b4f1c456692825891ff5073d" },
];

for (const c of cases) {
  test(`hash: ${c.name}`, async () => {
    const out = await service.call(hashEndpoint, c.input as InputOf<typeof hashEndpoint>);
    assert.equal(out.status, 200);
    assert.equal(dataOf(out).hex, c.hex);
  });
}

test("hash: answers in the envelope", async () => {
  const out = await service.call(hashEndpoint, { text: "hi" });
  const body = out.body as any;
  assert.equal(body.meta.product, "converters");
  assert.equal(body.meta.endpoint, "hash");
  assert.match(body.meta.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(body.data.bytes, 2);
});

const bad = [
  { name: "missing text", query: "", field: "text" },
  { name: "unknown algorithm", query: "text=a&algo=crc32", field: "algo" },
  { name: "text over 100,000 characters", query: `text=${"a".repeat(100_001)}`, field: "text" },
];
for (const c of bad) {
  test(`hash: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/hash?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("hash: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/hash?text=hi");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "1000");
});
