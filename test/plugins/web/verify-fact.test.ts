import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import verifyFact from "../../../plugins/web/verify-fact.ts";

const dir = new URL("./fixtures/", import.meta.url);
const claim = "The Eiffel Tower was completed in Paris in 1889";
const serviceFor = (wiki: string, searx: string) =>
  startTestService({
    plugins: ["web"],
    env: { UPSTREAM_WIKIPEDIA_API_URL: `${wiki}/w/api.php`, UPSTREAM_SEARXNG_URL: searx },
  });

test("verify-fact: evidence from Wikipedia and the web, scored and cited, with the method stated", async (t) => {
  const wiki = await serveFixtures(t, ["wikipedia-api.search-eiffel"], { dir });
  const searx = await serveFixtures(t, ["searxng.eiffel"], { dir });
  const service = await serviceFor(wiki.url, searx.url);
  const out = await service.call(verifyFact, { claim, limit: 10 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.terms, ["eiffel", "tower", "completed", "paris", "1889"]);
  assert.equal(data.evidence.length, 4);
  assert.deepEqual(
    data.evidence.map((e: any) => e.score),
    [1, 1, 0.3, 0.3],
  );
  assert.deepEqual(
    data.evidence.find((e: any) => e.source === "web" && e.score === 1),
    {
      source: "web",
      title: "History of the Eiffel Tower - Official website",
      url: "https://www.toureiffel.paris/en/the-monument/history",
      snippet: "Built for the 1889 World's Fair in Paris, the Eiffel Tower was completed in just over two years.",
      score: 1,
      matchedTerms: ["eiffel", "tower", "completed", "paris", "1889"],
      numbersMatched: true,
    },
  );
  const wikiTop = data.evidence.find((e: any) => e.source === "wikipedia" && e.title === "Eiffel Tower")!;
  assert.equal(wikiTop.url, "https://en.wikipedia.org/wiki/Eiffel_Tower");
  assert.match(
    wikiTop.snippet,
    /^The Eiffel Tower is a wrought-iron lattice tower .* 1889 & named after Gustave Eiffel$/,
  );
  assert.equal(wikiTop.score, 1);
  // "Gustave Eiffel": eiffel, tower, paris of five terms, and no 1889: 3/5 halved. The web copy of Wikipedia lacks "completed" and 1889: also 0.3.
  assert.equal(data.evidence.find((e: any) => e.title === "Gustave Eiffel")!.score, 0.3);
  assert.equal(data.confidence, 1);
  assert.equal(data.verdict, "likely_supported");
  assert.match(data.method, /never answers refuted/);
  assert.deepEqual(
    data.sources.map((s: any) => [s.name, s.status, s.results]),
    [
      ["wikipedia", "ok", 2],
      ["searxng", "ok", 2],
    ],
  );
});

test("verify-fact: one source failing still answers from the other and says so", async (t) => {
  const wiki = await serveFixtures(t, ["wikipedia-api.search-eiffel"], { dir });
  const searx = await serveFixtures(
    t,
    [
      {
        source: "https://docs.searxng.org/dev/search_api.html",
        request: { method: "GET", path: `/search?q=${encodeURIComponent(claim)}&format=json` },
        response: { status: 500, body: "engine error" },
      },
    ],
    { reuse: true },
  );
  const service = await serviceFor(wiki.url, searx.url);
  const out = await service.call(verifyFact, { claim });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.sources[1], { name: "searxng", status: "failed", results: 0, error: "searxng answered 500" });
  assert.ok(data.evidence.every((e: any) => e.source === "wikipedia"));
  // Only en.wikipedia.org scores: one site counts half.
  assert.equal(data.confidence, 0.5);
  assert.equal(data.verdict, "inconclusive");
});

test("verify-fact: both sources failing is a 502", async (t) => {
  const failing = (path: string) => ({
    source: "https://www.mediawiki.org/wiki/API:Errors_and_warnings",
    request: { method: "GET", path },
    response: { status: 503, body: "down" },
  });
  const wiki = await serveFixtures(
    t,
    [
      failing(
        "/w/api.php?action=query&list=search&srsearch=eiffel+tower+completed+paris+1889&srlimit=5&srprop=snippet&format=json&formatversion=2",
      ),
    ],
    { reuse: true },
  );
  const searx = await serveFixtures(t, [failing(`/search?q=${encodeURIComponent(claim)}&format=json`)], {
    reuse: true,
  });
  const service = await serviceFor(wiki.url, searx.url);
  const out = await service.call(verifyFact, { claim });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).code, "upstream_error");
});

test("verify-fact: no matching evidence is no_evidence, never a guess", async (t) => {
  const wiki = await serveFixtures(t, [
    {
      source: "https://www.mediawiki.org/wiki/API:Search",
      request: {
        method: "GET",
        path: "/w/api.php?action=query&list=search&srsearch=moon+made+green+cheese&srlimit=5&srprop=snippet&format=json&formatversion=2",
      },
      response: { status: 200, body: { batchcomplete: true, query: { searchinfo: { totalhits: 0 }, search: [] } } },
    },
  ]);
  const searx = await serveFixtures(t, [
    {
      source: "https://docs.searxng.org/dev/search_api.html",
      request: { method: "GET", path: "/search?q=The+moon+is+made+of+green+cheese&format=json" },
      response: {
        status: 200,
        body: {
          query: "The moon is made of green cheese",
          number_of_results: 0,
          results: [],
          answers: [],
          corrections: [],
          infoboxes: [],
          suggestions: [],
          unresponsive_engines: [],
        },
      },
    },
  ]);
  const service = await serviceFor(wiki.url, searx.url);
  const data = dataOf(await service.call(verifyFact, { claim: "The moon is made of green cheese" }));
  assert.equal(data.verdict, "no_evidence");
  assert.equal(data.confidence, 0);
  assert.deepEqual(data.evidence, []);
});

test("verify-fact: bad input is a free 400 and calls nothing", async (t) => {
  const wiki = await serveFixtures(t, []);
  const searx = await serveFixtures(t, []);
  const service = await serviceFor(wiki.url, searx.url);
  await expectFree400(await service.request("/v1/verify-fact?claim=short"), "claim");
  assert.equal(wiki.calls.length + searx.calls.length, 0);
});

test("verify-fact: without a SearXNG it stays mounted, reads Wikipedia alone and says the web was not configured", async (t) => {
  const wiki = await serveFixtures(t, ["wikipedia-api.search-eiffel"], { dir });
  const service = await startTestService({
    plugins: ["web"],
    env: { UPSTREAM_WIKIPEDIA_API_URL: `${wiki.url}/w/api.php` },
  });
  assert.ok(service.runtime.endpoints.some((e) => e.name === "verify-fact"));
  const out = await service.call(verifyFact, { claim });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.sources[1], { name: "searxng", status: "not_configured", results: 0, error: null });
  assert.deepEqual((out.body as any).meta.sources, ["wikipedia-api"]);
  assert.equal(wiki.calls.length, 1);
  assert.ok(data.evidence.every((e: any) => e.source === "wikipedia"));
});
