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
import papers from "../../../plugins/publicdata/papers.ts";

const serviceFor = (url: string, env: Record<string, string> = {}) =>
  publicdataService({ UPSTREAM_SEMANTIC_SCHOLAR_URL: `${url}/graph/v1`, ...env });
const docs = "https://api.semanticscholar.org/api-docs/graph#tag/Paper-Data/operation/get_graph_paper_relevance_search";
const fields = "title,url,abstract,year,publicationDate,venue,citationCount,authors,externalIds,openAccessPdf";

test("papers: a relevance search in our shape (an empty PDF link is no PDF)", async (t) => {
  const api = await serveFixtures(t, ["semantic-scholar.attention"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("papers", papers.example.input));
  assert.deepEqual(data, papers.example.output);
});

test("papers: year range and open access filters, DOI and PDF, key sent when configured", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: {
        method: "GET",
        path: `/graph/v1/paper/search?query=crispr%20base%20editing&fields=${encodeURIComponent(fields)}&year=2016-2020&openAccessPdf=&limit=10&offset=0`,
      },
      response: {
        status: 200,
        body: {
          total: 1,
          offset: 0,
          data: [
            {
              paperId: "f5b4f1a9c1d6b1d3a1e7f0c5b2e1d3c4a5b6c7d8",
              externalIds: { DOI: "10.1038/nature17946", PubMed: "27096365", CorpusId: 4453547 },
              url: "https://www.semanticscholar.org/paper/f5b4f1a9c1d6b1d3a1e7f0c5b2e1d3c4a5b6c7d8",
              title: "Programmable editing of a target base in genomic DNA without double-stranded DNA cleavage",
              abstract: "Current genome-editing technologies introduce double-stranded DNA breaks at a target locus.",
              venue: "Nature",
              year: 2016,
              citationCount: 5120,
              openAccessPdf: {
                url: "https://europepmc.org/articles/pmc4873371?pdf=render",
                status: "GREEN",
                license: null,
              },
              publicationDate: "2016-04-20",
              authors: [
                { authorId: "5555", name: "A. Komor" },
                { authorId: "6666", name: "David R. Liu" },
              ],
            },
          ],
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url, { UPSTREAM_SEMANTIC_SCHOLAR_KEY: "test-s2-key" })).call("papers", {
      q: "crispr base editing",
      year: "2016-2020",
      openAccess: true,
    }),
  );
  assert.deepEqual(
    [data.papers[0].doi, data.papers[0].pdf, data.papers[0].authors],
    ["10.1038/nature17946", "https://europepmc.org/articles/pmc4873371?pdf=render", ["A. Komor", "David R. Liu"]],
  );
  assert.equal(api.calls[0].headers["x-api-key"], "test-s2-key");
});

test("papers: no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no match: total 0 and no data)`,
      request: {
        method: "GET",
        path: `/graph/v1/paper/search?query=zzxqv%20wwq&fields=${encodeURIComponent(fields)}&limit=10&offset=0`,
      },
      response: { status: 200, body: { total: 0, offset: 0 } },
    },
  ]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call("papers", { q: "zzxqv wwq" })), {
    total: 0,
    papers: [],
  });
});

test("papers: a busy shared pool (429) is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: `${docs} (429 Too Many Requests from the shared keyless pool)`,
        request: {
          method: "GET",
          path: `/graph/v1/paper/search?query=graphene&fields=${encodeURIComponent(fields)}&limit=10&offset=0`,
        },
        response: {
          status: 429,
          body: {
            message: "Too Many Requests. Please wait and try again or apply for a key for higher rate limits.",
            code: "429",
          },
        },
      },
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("papers", { q: "graphene" }));
});

test("papers: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "GET",
        `/graph/v1/paper/search?query=graphene&fields=${encodeURIComponent(fields)}&limit=10&offset=0`,
        docs,
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("papers", { q: "graphene" }));
});

test("papers: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/papers"), "q");
  await expectFree400(await service.request("/v1/papers?q=graphene&year=last"), "year");
  await expectFree400(await service.request("/v1/papers?q=graphene&limit=500"), "limit");
  assert.equal(api.calls.length, 0);
});
