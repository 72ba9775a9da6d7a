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
import census from "../../../plugins/publicdata/census.ts";
import { errorOf } from "../../helpers/expect.ts";
import censusEndpoint from "../../../plugins/publicdata/census.ts";

const serviceFor = (url: string, env: Record<string, string> = {}) =>
  publicdataService({ UPSTREAM_CENSUS_URL: `${url}/data`, ...env });
const docs = "https://www.census.gov/data/developers/guidance/api-user-guide.html";

test("census: a table becomes rows of values and geography codes", async (t) => {
  const api = await serveFixtures(t, ["census.acs5-2022-ca-tx"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(censusEndpoint, census.example.input));
  assert.deepEqual(data, census.example.output);
});

test("census: counties within a state, with a configured key sent along", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/data/2020/dec/pl?get=P1_001N&for=county%3A037&in=state%3A06" },
      response: {
        status: 200,
        body: [
          ["P1_001N", "state", "county"],
          ["10014009", "06", "037"],
        ],
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url, { UPSTREAM_CENSUS_KEY: "test-census-key" })).call(censusEndpoint, {
      dataset: "dec/pl",
      year: 2020,
      variables: "P1_001N",
      for: "county:037",
      in: "state:06",
    }),
  );
  assert.deepEqual(data.rows, [{ values: { P1_001N: "10014009" }, geography: { state: "06", county: "037" } }]);
  assert.equal(new URL(api.calls[0].path, api.url).searchParams.get("key"), "test-census-key");
});

test("census: an unknown dataset, or a geography with no data (204), is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (unknown dataset or vintage: 404)`,
      request: { method: "GET", path: "/data/1999/acs/acs5?get=NAME&for=state%3A*" },
      response: { status: 404, body: "<html><body>404 Not Found</body></html>" },
    },
    {
      source: `${docs} (no matching data: 204 No Content)`,
      request: { method: "GET", path: "/data/2022/acs/acs5?get=NAME&for=place%3A99999&in=state%3A06" },
      response: { status: 204, body: "" },
    },
  ]);
  const service = await serviceFor(api.url);
  expectNotFound(
    await service.call(censusEndpoint, { dataset: "acs/acs5", year: 1999, variables: "NAME", for: "state:*" }),
  );
  expectNotFound(
    await service.call(censusEndpoint, {
      dataset: "acs/acs5",
      year: 2022,
      variables: "NAME",
      for: "place:99999",
      in: "state:06",
    }),
  );
});

test("census: an unknown variable is a 400 with the Bureau's reason", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (400 with a plain-text reason)`,
      request: { method: "GET", path: "/data/2022/acs/acs5?get=NOPE_001E&for=state%3A*" },
      response: { status: 400, body: "error: error: unknown variable 'NOPE_001E'" },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(censusEndpoint, {
    dataset: "acs/acs5",
    year: 2022,
    variables: "NOPE_001E",
    for: "state:*",
  });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /unknown variable 'NOPE_001E'/);
});

test("census: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/data/2022/acs/acs5?get=NAME&for=state%3A*", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(
    await (await serviceFor(api.url)).call(censusEndpoint, {
      dataset: "acs/acs5",
      year: 2022,
      variables: "NAME",
      for: "state:*",
    }),
  );
});

test("census: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/census?variables=NAME&for=state:*"), "dataset");
  await expectFree400(
    await service.request("/v1/census?dataset=acs/acs5&variables=NAME;DROP&for=state:*"),
    "variables",
  );
  await expectFree400(await service.request("/v1/census?dataset=acs/acs5&variables=NAME&for=everything"), "for");
  assert.equal(api.calls.length, 0);
});
