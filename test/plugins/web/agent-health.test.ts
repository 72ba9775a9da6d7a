import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const json = (body: unknown) => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const target = await startTarget({
  "/health": json({ status: "ok" }),
  "/.well-known/x402": json({ version: 1, resources: ["https://a.test/v1/x", "https://a.test/v1/y"] }),
  "/.well-known/agent-card.json": json({ name: "Test Agent", url: "https://a.test/a2a", skills: [] }),
  "/.well-known/agent.json": json({ description: "no name" }),
  "/openapi.json": json({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/v1/x": {}, "/v1/y": {} } }),
  "/llms.txt": { headers: { "content-type": "text/plain" }, body: "# Test Agent\n\n> Pay-per-call tools.\n" },
  "/status/live": { status: 503, body: "down" },
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());
const byName = (data: any) => Object.fromEntries(data.probes.map((p: any) => [p.name, p]));

test("agent-health: probes health and every discovery document and judges their shape", async () => {
  const data = dataOf(await service.call("agent-health", { url: target.url("/") }));
  const probes = byName(data);
  assert.equal(data.healthy, true);
  assert.deepEqual(data.discovered, ["x402", "agent-card", "openapi", "llms-txt"]);
  assert.equal(probes.health.note, "ok");
  assert.equal(probes.x402.note, "2 resources");
  assert.equal(probes["agent-card"].note, "Test Agent");
  assert.equal(probes["agent-json"].found, true);
  assert.equal(probes["agent-json"].valid, false);
  assert.equal(probes.openapi.note, "OpenAPI 3.1.0, 2 paths");
  assert.equal(probes["llms-txt"].note, "Test Agent");
  assert.equal(probes["llms-txt"].contentType, "text/plain");
  assert.ok(data.probes.every((p: any) => p.status === 200 && p.latencyMs > 0 && p.error === null));
});

test("agent-health: a failing health path and missing documents are reported, not thrown", async () => {
  target.set("/llms.txt", { status: 404, body: "no" });
  target.set("/.well-known/x402", "hang-up");
  const data = dataOf(await service.call("agent-health", { url: target.url("/app"), path: "/status/live" }));
  const probes = byName(data);
  assert.equal(data.healthy, false);
  assert.equal(probes.health.url, target.url("/status/live"));
  assert.equal(probes.health.status, 503);
  assert.equal(probes["llms-txt"].found, false);
  assert.equal(probes["llms-txt"].valid, null);
  assert.equal(probes.x402.status, null);
  assert.match(probes.x402.error, /could not reach/);
  assert.deepEqual(data.discovered, ["agent-card", "openapi"]);
});

test("agent-health: a service where nothing answers is a 502", async () => {
  for (const path of [
    "/health",
    "/.well-known/x402",
    "/.well-known/agent-card.json",
    "/.well-known/agent.json",
    "/openapi.json",
    "/llms.txt",
  ])
    target.set(path, "hang-up");
  expect502(await service.call("agent-health", { url: target.url("/down") }), "target_error");
});

test("agent-health: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  await expectFree400(
    await service.request(`/v1/agent-health?${query({ url: target.url("/"), path: "health" })}`),
    "path",
  );
  await expectFree400(await service.request("/v1/agent-health"), "url");
  assert.equal(target.hits.length, before);
});

test("agent-health: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("agent-health", { url: "http://10.0.0.1:80/" }), /private/);
  assert.equal(target.hits.length, before);
});
