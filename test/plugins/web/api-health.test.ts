import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

let healthCalls = 0;
const target = await startTarget({
  "/health": (_req, res) => {
    healthCalls++;
    // Every other answer fails, so availability has something to measure.
    const status = healthCalls % 2 === 0 ? 500 : 200;
    res.writeHead(status, {
      "content-type": "application/json",
      "access-control-allow-origin": "*",
      "x-ratelimit-remaining": String(100 - healthCalls),
      "retry-after": "1",
    });
    res.end(JSON.stringify({ status: status === 200 ? "ok" : "error" }));
  },
  "/openapi.json": {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ openapi: "3.0.3", paths: { "/a": {} } }),
  },
  "/swagger.json": { headers: { "content-type": "application/json" }, body: "not json" },
  "/.well-known/x402": { status: 404, body: "{}" },
  "/llms.txt": { headers: { "content-type": "text/plain" }, body: "# Test API\n" },
  "/ok": { headers: { "content-type": "application/json" }, body: "{}" },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("api-health: samples the health path, measures availability and latency, reads CORS and rate limits", async () => {
  healthCalls = 0;
  const data = dataOf(await service.call("api-health", { url: target.url("/"), samples: 3 }));
  assert.equal(data.healthUrl, target.url("/health"));
  assert.deepEqual(
    data.samples.map((s: any) => s.status),
    [200, 500, 200],
  );
  assert.equal(data.availability, 0.667);
  assert.equal(data.healthy, false);
  const latencies = data.samples.map((s: any) => s.latencyMs).sort((a: number, b: number) => a - b);
  assert.deepEqual(data.latencyMs, { min: latencies[0], median: latencies[1], max: latencies[2] });
  assert.equal(data.cors, "*");
  assert.deepEqual(data.rateLimit, { "x-ratelimit-remaining": "97", "retry-after": "1" });
  assert.deepEqual(data.discovered, ["openapi", "llms-txt"]);
  const swagger = data.probes.find((p: any) => p.name === "swagger");
  assert.equal(swagger.found, true);
  assert.equal(swagger.valid, false);
  assert.equal(healthCalls, 3);
});

test("api-health: one sample on another path", async () => {
  const data = dataOf(await service.call("api-health", { url: target.url("/v2/"), path: "/ok", samples: 1 }));
  assert.equal(data.healthUrl, target.url("/ok"));
  assert.equal(data.healthy, true);
  assert.equal(data.availability, 1);
  assert.equal(data.samples.length, 1);
});

test("api-health: an API where nothing answers is a 502", async () => {
  for (const path of ["/health", "/openapi.json", "/swagger.json", "/.well-known/x402", "/llms.txt"])
    target.set(path, "hang-up");
  expect502(await service.call("api-health", { url: target.url("/gone"), samples: 2 }), "target_error");
});

test("api-health: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(
    await service.request(`/v1/api-health?${query({ url: target.url("/"), samples: 6 })}`),
    "samples",
  );
  await expectFree400(
    await service.request(`/v1/api-health?${query({ url: target.url("/"), samples: 0 })}`),
    "samples",
  );
  assert.equal(target.hits.length, before);
});

test("api-health: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("api-health", { url: "https://192.168.0.10/" }), /private/);
  assert.equal(target.hits.length, before);
});
