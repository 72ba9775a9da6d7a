import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "../web/_web-expect.ts";

const target = await startTarget({
  "/inbox": { status: 202, headers: { "content-type": "application/json" }, body: '{"queued":true}' },
  "/broken": { status: 500, body: "oops" },
  "/moved": { status: 307, headers: { location: "/inbox" } },
  "/hang-up": "hang-up",
});
const service = await startTestService({ plugins: ["state"], egressLoopbackPort: target.port });
after(() => target.close());

test("webhook: one signed JSON POST, and the receiver's answer reported", async () => {
  const body = '{"event":"done","n":1}';
  const data = dataOf(
    await service.call("webhook", { url: target.url("/inbox"), body, secret: "a-long-shared-secret" }),
  );
  const hit = target.hits.at(-1)!;
  assert.equal(hit.method, "POST");
  assert.equal(hit.body, body);
  assert.equal(hit.headers["content-type"], "application/json");
  const expected = `sha256=${createHmac("sha256", "a-long-shared-secret").update(body).digest("hex")}`;
  assert.equal(hit.headers["x-signature"], expected);
  assert.equal(data.signature, expected);
  assert.deepEqual([data.status, data.ok, data.bytesSent], [202, true, Buffer.byteLength(body)]);
  assert.deepEqual(data.response, { contentType: "application/json", bytes: 15, excerpt: '{"queued":true}' });
  assert.ok(data.latencyMs > 0);
});

test("webhook: without a secret nothing is signed; a text body goes with its own content type; redirects are followed", async () => {
  const data = dataOf(
    await service.call("webhook", { url: target.url("/moved"), body: "plain words", contentType: "text/plain" }),
  );
  const hits = target.hits.slice(-2);
  assert.deepEqual(
    hits.map((h) => [h.method, h.path]),
    [
      ["POST", "/moved"],
      ["POST", "/inbox"],
    ],
  );
  assert.equal(hits[1].headers["x-signature"], undefined);
  assert.equal(hits[1].headers["content-type"], "text/plain");
  assert.equal(data.signature, null);
  assert.equal(data.finalUrl, target.url("/inbox"));
});

test("webhook: a receiver's error status is reported, not retried", async () => {
  const before = target.hits.length;
  const data = dataOf(await service.call("webhook", { url: target.url("/broken"), body: "{}" }));
  assert.deepEqual([data.status, data.ok, data.response.excerpt], [500, false, "oops"]);
  assert.equal(target.hits.length - before, 1);
});

test("webhook: a receiver that cannot be reached is a 502", async () => {
  expect502(await service.call("webhook", { url: target.url("/hang-up"), body: "{}" }), "target_error");
});

test("webhook: private targets and invalid JSON are refused before anything is sent", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("webhook", { url: "http://192.168.1.10/hook", body: "{}" }), /192\.168\.1\.10 is/);
  expectRefused(
    await service.call("webhook", { url: "http://[::ffff:127.0.0.1]/hook", body: "{}" }),
    /IPv4-mapped \(127\.0\.0\.1\)/,
  );
  expectRefused(await service.call("webhook", { url: target.url("/inbox"), body: "{not json" }), /not valid JSON/);
  assert.equal(target.hits.length, before);
});

const bad: { name: string; params: Record<string, string>; field: string }[] = [
  { name: "missing url", params: { body: "{}" }, field: "url" },
  { name: "missing body", params: { url: "https://example.com/h" }, field: "body" },
  { name: "a short secret", params: { url: "https://example.com/h", body: "{}", secret: "short" }, field: "secret" },
  {
    name: "body over 16384 characters",
    params: { url: "https://example.com/h", body: "x".repeat(16_385) },
    field: "body",
  },
  {
    name: "unknown content type",
    params: { url: "https://example.com/h", body: "{}", contentType: "application/xml" },
    field: "contentType",
  },
];
for (const c of bad) {
  test(`webhook: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/webhook?${query(c.params)}`), c.field);
  });
}

test("webhook: valid input without payment is a 402 at $0.01", async () => {
  const res = await service.request(`/v1/webhook?${query({ url: "https://example.com/h", body: "{}" })}`);
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "10000");
});
