import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import searchEndpoint from "../../../plugins/web/search.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["web"], env: { UPSTREAM_SEARXNG_URL: url } });

test("search: SearXNG results as title, url, snippet, engines and dates; non-web links dropped", async (t) => {
  const searxng = await serveFixtures(t, ["searxng.x402"], { dir });
  const service = await serviceFor(searxng.url);
  const out = await service.call(searchEndpoint, { q: "x402 payment protocol", language: "en", timeRange: "year" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.results.length, 2);
  assert.deepEqual(data.results[1], {
    title: "coinbase/x402: A payments protocol for the internet. Built on HTTP.",
    url: "https://github.com/coinbase/x402",
    snippet: "A payments protocol for the internet. Built on HTTP.",
    engines: ["brave"],
    publishedDate: "2025-05-06T00:00:00.000Z",
    score: 0.5,
  });
  assert.deepEqual(data.suggestions, ["x402 protocol coinbase"]);
  assert.deepEqual(data.unresponsiveEngines, [{ engine: "google", reason: "timeout" }]);
  assert.deepEqual((out.body as any).meta.sources, ["searxng"]);
});

test("search: limit cuts the results", async (t) => {
  const searxng = await serveFixtures(t, ["searxng.x402"], { dir });
  const service = await serviceFor(searxng.url);
  const out = await service.call(searchEndpoint, {
    q: "x402 payment protocol",
    language: "en",
    timeRange: "year",
    limit: 1,
  });
  assert.deepEqual(
    dataOf(out).results.map((r: any) => r.url),
    ["https://www.x402.org/"],
  );
});

test("search: SearXNG refusing JSON (403) is a 502", async (t) => {
  const searxng = await serveFixtures(t, [
    {
      source:
        "https://docs.searxng.org/admin/settings/settings_search.html (formats not listed in search.formats answer 403)",
      request: { method: "GET", path: "/search?q=hello&format=json&safesearch=1&pageno=1" },
      response: { status: 403, body: "Forbidden" },
    },
  ]);
  const service = await serviceFor(searxng.url);
  const out = await service.call(searchEndpoint, { q: "hello" });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).code, "upstream_error");
});

test("search: bad input is a free 400 and calls nothing", async (t) => {
  const searxng = await serveFixtures(t, []);
  const service = await serviceFor(searxng.url);
  for (const [query, field] of [
    ["q=", "q"],
    ["q=a&limit=21", "limit"],
    ["q=a&language=english", "language"],
    ["q=a&safesearch=3", "safesearch"],
  ]) {
    await expectFree400(await service.request(`/v1/search?${query}`), field);
  }
  assert.equal(searxng.calls.length, 0);
});

test("search: without UPSTREAM_SEARXNG_URL it is not mounted and listed as disabled with the reason", async () => {
  const service = await startTestService({ plugins: ["web"] });
  assert.ok(!service.runtime.endpoints.some((e) => e.name === "search"));
  assert.deepEqual(
    service.runtime.disabled.find((d: { name: string }) => d.name === "search"),
    { name: "search", reason: "missing UPSTREAM_SEARXNG_URL (upstream searxng)" },
  );
  assert.equal((await service.request("/v1/search?q=x402")).status, 404);
});
