import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import arxiv from "../../../plugins/publicdata/arxiv.ts";
import { issuesOf } from "../../helpers/expect.ts";
import arxivEndpoint from "../../../plugins/publicdata/arxiv.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_ARXIV_URL: `${url}/api` });
const docs = "https://info.arxiv.org/help/api/user-manual.html";

test("arxiv: one paper by id, parsed from the Atom feed", async (t) => {
  const api = await serveFixtures(t, ["arxiv.attention"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(arxivEndpoint, { id: "1706.03762" }));
  assert.deepEqual(data, arxiv.example.output);
});

test("arxiv: a search ANDs the words and the category, newest first", async (t) => {
  const feed = (await import("./fixtures/arxiv.attention.json", { with: { type: "json" } })).default.response.body;
  const api = await serveFixtures(t, [
    {
      source: `${docs} (search_query with field prefixes joined by AND; sortBy submittedDate)`,
      request: {
        method: "GET",
        path: "/api/query?search_query=all:attention AND all:transformer AND cat:cs.CL&start=0&max_results=5&sortBy=submittedDate&sortOrder=descending",
      },
      response: { status: 200, body: feed.replace(">1</opensearch:totalResults>", ">4211</opensearch:totalResults>") },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call(arxivEndpoint, {
      q: "attention transformer",
      category: "cs.CL",
      sort: "submitted",
      limit: 5,
    }),
  );
  assert.equal(data.total, 4211);
  assert.deepEqual(
    data.papers.map((p: any) => p.id),
    ["1706.03762"],
  );
});

test("arxiv: an id arXiv does not have is a 404", async (t) => {
  const api = await serveFixtures(t, ["arxiv.unknown-id"], { dir });
  expectNotFound(await (await serviceFor(api.url)).call(arxivEndpoint, { id: "9999.99999" }));
});

test("arxiv: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/api/query?id_list=1706.03762&max_results=1", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(arxivEndpoint, { id: "1706.03762" }));
});

test("arxiv: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/arxiv?id=not-an-id"), "id");
  await expectFree400(await service.request("/v1/arxiv?q=a%29%20OR%20(b"), "q");
  await expectFree400(await service.request("/v1/arxiv?q=llm&limit=500"), "limit");
  const none = await service.call(arxivEndpoint, {});
  assert.equal(none.status, 400);
  assert.equal(issuesOf(none)[0].field, "q");
  assert.equal(api.calls.length, 0);
});
