import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import stackoverflowEndpoint from "../../../plugins/web/stackoverflow.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["web"], env: { UPSTREAM_STACKEXCHANGE_URL: `${url}/2.3` } });
const input: InputOf<typeof stackoverflowEndpoint> = {
  q: "undici fetch timeout",
  tagged: "node.js",
  accepted: true,
  sort: "votes",
  limit: 2,
};

test("stackoverflow: questions with decoded titles, flags, tags and ISO dates", async (t) => {
  const api = await serveFixtures(t, ["stackexchange.search-undici"], { dir });
  const out = await (await serviceFor(api.url)).call(
    stackoverflowEndpoint,
    input as InputOf<typeof stackoverflowEndpoint>,
  );
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.questions[0], {
    id: 76555012,
    title: "How to set a timeout with Node's built-in fetch (undici)?",
    link: "https://stackoverflow.com/questions/76555012/how-to-set-a-timeout-with-nodes-built-in-fetch-undici",
    score: 12,
    answers: 2,
    accepted: true,
    answered: true,
    views: 9876,
    tags: ["node.js", "fetch-api", "undici"],
    author: "Jörg",
    createdAt: "2023-06-26T10:12:03.000Z",
    lastActivityAt: "2024-02-01T08:00:00.000Z",
  });
  assert.equal(data.questions[1].title, "undici headersTimeout & bodyTimeout");
  assert.equal(data.questions[1].accepted, false);
  assert.equal(data.questions[1].author, null);
  assert.equal(data.hasMore, true);
  assert.equal(data.quotaRemaining, 287);
});

test("stackoverflow: an answer carrying backoff makes the next call wait (503 with Retry-After, nothing called)", async (t) => {
  const api = await serveFixtures(t, ["stackexchange.search-undici"], { dir });
  const service = await serviceFor(api.url);
  assert.equal((await service.call(stackoverflowEndpoint, input as InputOf<typeof stackoverflowEndpoint>)).status, 200);
  const next = await service.call(stackoverflowEndpoint, { ...input, q: "something else" } as InputOf<
    typeof stackoverflowEndpoint
  >);
  assert.equal(next.status, 503);
  assert.ok(Number(next.headers["retry-after"]) > 0 && Number(next.headers["retry-after"]) <= 10);
  assert.equal(api.calls.length, 1);
});

test("stackoverflow: an API error is a 502", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://api.stackexchange.com/docs/error-handling (error_id, error_message, error_name in the wrapper)",
      request: {
        method: "GET",
        path: "/2.3/search/advanced?site=stackoverflow&order=desc&sort=relevance&q=x&pagesize=10",
      },
      response: {
        status: 400,
        body: {
          error_id: 502,
          error_message: "too many requests from this IP, more requests available in 8000 seconds",
          error_name: "throttle_violation",
        },
      },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(stackoverflowEndpoint, { q: "x" });
  assert.equal(out.status, 502);
});

test("stackoverflow: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  for (const query of ["", "q=a&tagged=Bad%20Tag", "q=a&sort=hot", "q=a&limit=51", "q=a&accepted=maybe"]) {
    assert.equal((await service.request(`/v1/stackoverflow?${query}`)).status, 400, query);
  }
  assert.equal(api.calls.length, 0);
});
