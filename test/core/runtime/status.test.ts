// test: own-process: counts the calls of the process-wide last hour (core/runtime/rolling.ts)
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import * as v from "valibot";
import { serve } from "h3";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import type { Status } from "../../../core/runtime/status.ts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { settlingGate, startTestService } from "../../helpers/service.ts";
import { testUpstreams } from "./_upstreams.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

// The public status page: free, this instance's last hour, read by people (HTML, no script) and machines (JSON).
const echo = defineEndpoint({
  name: "echo",
  method: "GET",
  price: "$0.001",
  summary: "Echoes n",
  input: v.object({ n: v.number() }),
  output: v.object({ n: v.number() }),
  example: { input: { n: 1 }, output: { n: 1 } },
  handler: ({ input }) => ({ n: input.n }),
});
const quote = defineEndpoint({
  name: "quote",
  method: "GET",
  price: "$0.001",
  summary: "Reads an upstream",
  upstreams: ["frankfurter"],
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: async (ctx) => ({ ok: Boolean(await ctx.upstream("frankfurter").json("/v1/latest")) }),
});

const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const fixtures = await serveFixtures(
  { after },
  [
    {
      request: { method: "GET", path: "/v1/latest" },
      response: { status: 503, body: { message: "down" } },
      source: "test: an upstream that fails",
    },
  ],
  { reuse: true },
);
const service = await startTestService({
  given: [
    definePlugin({ family: "demo", endpoints: [echo] }),
    definePlugin({ family: "rates", endpoints: [quote], upstreams: { frankfurter: testUpstreams.frankfurter } }),
  ],
  env: { UPSTREAM_FRANKFURTER_URL: fixtures.url },
  payments: settlingGate(),
});
const paid = { headers: { "x-credit-code": "test" } };
for (const n of [1, 2, 3]) assert.equal((await service.request(`/v1/echo?n=${n}`, paid)).status, 200);
assert.equal((await service.request("/v1/echo?n=x", paid)).status, 400);
assert.equal((await service.request("/v1/echo?n=1")).status, 402);
assert.equal((await service.request("/v1/quote", paid)).status, 502);

const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
await server.ready();
const origin = server.url!.replace(/\/$/, "");
const browser = await launchChromium();
after(async () => {
  await browser.close();
  await server.close(true);
  await service.close();
});

test("/status.json: per family and per upstream, the hour's calls and success rate; bad input and 402s judge nothing", async () => {
  const res = await service.request("/status.json");
  assert.equal(res.status, 200);
  const status = (await res.json()) as Status;
  const demo = status.families.find((f) => f.family === "demo")!;
  assert.deepEqual([demo.calls, demo.failed, demo.successRate], [3, 0, 1]);
  assert.ok(demo.latencyMs && demo.latencyMs.p50 <= demo.latencyMs.p95);
  assert.equal(demo.perMinute?.calls.length, 60);
  assert.equal(demo.perMinute?.calls.at(-1), 3);
  const rates = status.families.find((f) => f.family === "rates")!;
  assert.deepEqual([rates.calls, rates.failed, rates.successRate], [1, 1, 0]);
  // The upstream was tried three times (two retries), one exchange: one failure.
  const frankfurter = status.upstreams.find((u) => u.upstream === "frankfurter")!;
  assert.deepEqual([frankfurter.calls, frankfurter.failed, frankfurter.breaker], [1, 1, "closed"]);
  assert.deepEqual([status.overall.calls, status.overall.failed], [4, 1]);
  assert.equal(status.settlements.pending, 0);
  assert.ok(status.uptimeSeconds >= 0);
});

test("/status: free, no wallet, no script; charts drawn as inline SVG", async () => {
  const res = await service.request("/status");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.doesNotMatch(html, /<script/);
  assert.match(html, /<svg viewBox="0 0 600 120" class="chart" role="img" aria-label="Calls per minute/);
  assert.match(html, /<th scope="row">frankfurter<\/th><td class="good">closed<\/td>/);
});

for (const width of [390, 1280]) {
  test(`/status at ${width} px: no sideways scroll, no serious or critical axe-core violation`, async () => {
    const page = await openPage(browser, { viewport: { width, height: 900 } });
    try {
      await page.goto(`${origin}/status`, { waitUntil: "load" });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= width, `/status is ${scrollWidth} px wide`);
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
        return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, target: v.nodes[0]?.target }));
      });
      const serious = violations.filter((v: any) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(serious, [], JSON.stringify(serious));
    } finally {
      await page.close();
    }
  });
}
