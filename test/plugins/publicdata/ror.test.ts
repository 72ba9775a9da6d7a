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
import ror from "../../../plugins/publicdata/ror.ts";

const clientId = "test-ror-client-id";
const serviceFor = (url: string) => publicdataService({ UPSTREAM_ROR_URL: `${url}/v2`, UPSTREAM_ROR_KEY: clientId });
const docs = "https://ror.readme.io/v2/docs/rest-api";

test("ror: one organization by id, with the client ID header", async (t) => {
  const api = await serveFixtures(t, ["ror.oxford"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("ror", { id: "052gg0110" }));
  assert.deepEqual(data, ror.example.output);
  assert.equal(api.calls[0].headers["client-id"], clientId);
});

test("ror: affiliation matching keeps ROR's score and choice", async (t) => {
  const api = await serveFixtures(t, ["ror.affiliation-mit"], { dir });
  const data = dataOf(
    await (await serviceFor(api.url)).call("ror", { affiliation: "Dept. of Physics, MIT, Cambridge MA" }),
  );
  assert.equal(data.total, 1);
  const [mit] = data.organizations;
  assert.deepEqual(
    [mit.id, mit.title, mit.acronyms, mit.country, mit.domains, mit.score, mit.chosen],
    [
      "042nb2s44",
      "Massachusetts Institute of Technology",
      ["MIT"],
      { code: "US", name: "United States" },
      ["mit.edu"],
      0.9,
      true,
    ],
  );
});

test("ror: an unknown id is a 404, a search with no match an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (an id ROR does not have answers 404 with errors)`,
      request: { method: "GET", path: "/v2/organizations/0abcdef12" },
      response: { status: 404, body: { errors: ["ROR ID 'https://ror.org/0abcdef12' does not exist"] } },
    },
    {
      source: `${docs} (query=: {number_of_results, time_taken, items, meta})`,
      request: { method: "GET", path: "/v2/organizations?query=zzxqv%20institute" },
      response: {
        status: 200,
        body: { number_of_results: 0, time_taken: 3, items: [], meta: { types: [], countries: [], statuses: [] } },
      },
    },
  ]);
  const service = await serviceFor(api.url);
  expectNotFound(await service.call("ror", { id: "0abcdef12" }));
  assert.deepEqual(dataOf(await service.call("ror", { q: "zzxqv institute" })), { total: 0, organizations: [] });
});

test("ror: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/v2/organizations?query=oxford", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("ror", { q: "oxford" }));
});

test("ror: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/ror"), "id");
  await expectFree400(await service.request("/v1/ror?id=https%3A%2F%2Fror.org%2Fx"), "id");
  await expectFree400(await service.request("/v1/ror?q=oxford&affiliation=Oxford%20UK"), "affiliation");
  assert.equal(api.calls.length, 0);
});

test("ror: without a client ID the endpoint is mounted and asks ROR without the header", async (t) => {
  const api = await serveFixtures(t, ["ror.oxford"], { dir });
  const service = await publicdataService({ UPSTREAM_ROR_URL: `${api.url}/v2` });
  assert.ok(!service.runtime.disabled.some((d: { name: string }) => d.name === "ror"));
  assert.deepEqual(dataOf(await service.call("ror", { id: "052gg0110" })), ror.example.output);
  assert.equal(api.calls.length, 1);
  assert.equal(api.calls[0].headers["client-id"], undefined);
});
