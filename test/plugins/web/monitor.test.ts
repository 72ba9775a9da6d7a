import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const page = "<h1>Status: All Systems Operational</h1>";
const target = await startTarget({
  "/status": { body: page },
  "/moved": { status: 302, headers: { location: "/status" } },
  "/down": { status: 503, body: "maintenance" },
  "/hang-up": "hang-up",
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("monitor: up when the status matches and the keyword is there", async () => {
  const data = dataOf(
    await service.call("monitor", {
      url: target.url("/moved"),
      expectedStatus: 200,
      keyword: "all systems operational",
    }),
  );
  assert.equal(data.up, true);
  assert.equal(data.finalUrl, target.url("/status"));
  assert.equal(data.status, 200);
  assert.equal(data.statusMatches, true);
  assert.equal(data.keywordFound, true);
  assert.equal(data.bytes, Buffer.byteLength(page));
  assert.equal(data.contentHash, createHash("sha256").update(page).digest("hex"));
  assert.ok(data.latencyMs > 0);
  assert.ok(Math.abs(Date.parse(data.checkedAt) - Date.now()) < 5000);
});

test("monitor: a case-sensitive keyword that differs makes it down", async () => {
  const data = dataOf(
    await service.call("monitor", {
      url: target.url("/status"),
      keyword: "all systems operational",
      caseSensitive: true,
    }),
  );
  assert.equal(data.keywordFound, false);
  assert.equal(data.statusMatches, true);
  assert.equal(data.up, false);
});

test("monitor: an unexpected status is down; no keyword means keywordFound is null", async () => {
  const data = dataOf(await service.call("monitor", { url: target.url("/down") }));
  assert.equal(data.up, false);
  assert.equal(data.status, 503);
  assert.equal(data.expectedStatus, null);
  assert.equal(data.keywordFound, null);
  const expected = dataOf(await service.call("monitor", { url: target.url("/down"), expectedStatus: 503 }));
  assert.equal(expected.up, true);
});

test("monitor: a target that hangs up is a 502", async () => {
  expect502(await service.call("monitor", { url: target.url("/hang-up") }), "target_error");
});

test("monitor: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(
    await service.request(`/v1/monitor?${query({ url: target.url("/status"), expectedStatus: 99 })}`),
    "expectedStatus",
  );
  await expectFree400(
    await service.request(`/v1/monitor?${query({ url: target.url("/status"), keyword: "k".repeat(201) })}`),
    "keyword",
  );
  assert.equal(target.hits.length, before);
});

test("monitor: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("monitor", { url: "http://10.0.0.1/health" }), /private/);
  assert.equal(target.hits.length, before);
});
