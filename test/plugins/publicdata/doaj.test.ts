import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import doaj from "../../../plugins/publicdata/doaj.ts";
import { errorOf } from "../../helpers/expect.ts";
import doajEndpoint from "../../../plugins/publicdata/doaj.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_DOAJ_URL: `${url}/api` });
const docs = "https://doaj.org/api/docs";

test("doaj: a journal search in our shape", async (t) => {
  const api = await serveFixtures(t, ["doaj.journal-plos-one"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(doajEndpoint, doaj.example.input));
  assert.deepEqual(data, doaj.example.output);
});

test("doaj: an article search with paging, DOI and full-text link", async (t) => {
  const api = await serveFixtures(t, ["doaj.articles-coral"], { dir });
  const data = dataOf(
    await (await serviceFor(api.url)).call(doajEndpoint, { q: "coral bleaching", page: 2, limit: 1 }),
  );
  assert.equal(data.total, 1412);
  assert.equal(data.page, 2);
  assert.deepEqual(data.journals, []);
  assert.deepEqual(data.articles[0], {
    id: "0a3f1e0d2b4c4a5e8f9d7c6b5a4e3d2c",
    title: "Thermal Stress and Coral Cover as Drivers of Coral Bleaching",
    authors: ["Shannon G. Sully", "Robert van Woesik"],
    journal: "Nature Communications",
    publisher: "Nature Portfolio",
    issns: ["2041-1723"],
    year: "2019",
    doi: "10.1038/s41467-019-09238-2",
    abstract: "Coral bleaching events have increased in frequency with ocean warming.",
    keywords: ["coral reefs", "bleaching"],
    fullText: "https://doi.org/10.1038/s41467-019-09238-2",
    url: "https://doaj.org/article/0a3f1e0d2b4c4a5e8f9d7c6b5a4e3d2c",
  });
});

test("doaj: no match is empty lists; a query DOAJ cannot parse is a 400", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/api/search/articles/zzxqv%20wwq?page=1&pageSize=10" },
      response: {
        status: 200,
        body: { timestamp: "2025-01-15T10:00:00Z", page: 1, pageSize: 10, query: "zzxqv wwq", total: 0, results: [] },
      },
    },
    {
      source: `${docs} (a query the search cannot parse answers 400 with error)`,
      request: { method: "GET", path: "/api/search/articles/title%3A(%22open?page=1&pageSize=10" },
      response: { status: 400, body: { error: "Query contains disallowed characters or is malformed" } },
    },
  ]);
  const service = await serviceFor(api.url);
  assert.deepEqual(dataOf(await service.call(doajEndpoint, { q: "zzxqv wwq" })), {
    total: 0,
    page: 1,
    articles: [],
    journals: [],
  });
  const out = await service.call(doajEndpoint, { q: 'title:("open' });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /malformed/);
});

test("doaj: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/api/search/articles/coral?page=1&pageSize=10", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(doajEndpoint, { q: "coral" }));
});

test("doaj: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/doaj"), "q");
  await expectFree400(await service.request("/v1/doaj?q=coral&type=books"), "type");
  await expectFree400(await service.request("/v1/doaj?q=coral&limit=1000"), "limit");
  assert.equal(api.calls.length, 0);
});
