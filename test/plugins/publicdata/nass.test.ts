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
import { errorOf } from "../../helpers/expect.ts";
import nassEndpoint from "../../../plugins/publicdata/nass.ts";

const key = "test-nass-key";
const serviceFor = (url: string) => publicdataService({ UPSTREAM_NASS_URL: `${url}/api`, UPSTREAM_NASS_KEY: key });
const docs = "https://quickstats.nass.usda.gov/api";
const cornYield = { commodity: "corn", statistic: "yield", year: 2023, level: "NATIONAL", source: "SURVEY" } as const;

test("nass: counts, then reads the rows, with the key on every request", async (t) => {
  const api = await serveFixtures(t, ["nass.corn-yield-2023-count", "nass.corn-yield-2023"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(nassEndpoint, cornYield));
  assert.equal(data.total, 1);
  assert.deepEqual(data.rows[0], {
    description: "CORN, GRAIN - YIELD, MEASURED IN BU / ACRE",
    commodity: "CORN",
    statistic: "YIELD",
    unit: "BU / ACRE",
    value: "177.3",
    number: 177.3,
    cvPercent: null,
    year: 2023,
    period: "YEAR",
    frequency: "ANNUAL",
    weekEnding: null,
    level: "NATIONAL",
    location: "US TOTAL",
    state: "US",
    county: null,
    source: "SURVEY",
    domain: "TOTAL",
  });
  assert.equal(api.calls.length, 2);
  for (const call of api.calls) assert.equal(new URL(call.path, api.url).searchParams.get("key"), key);
});

test("nass: withheld values stay as published, with no number", async (t) => {
  const row = (await import("./fixtures/nass.corn-yield-2023.json", { with: { type: "json" } })).default.response.body
    .data[0];
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/api/get_counts/?commodity_desc=CORN&state_alpha=IA" },
      response: { status: 200, body: { count: 2 } },
    },
    {
      source: `${docs} ("(D)" marks a value withheld to avoid disclosing individual operations)`,
      request: { method: "GET", path: "/api/api_GET/?commodity_desc=CORN&state_alpha=IA&format=JSON" },
      response: {
        status: 200,
        body: {
          data: [
            { ...row, Value: " 2,552,400,000" },
            { ...row, Value: "(D)" },
          ],
        },
      },
    },
  ]);
  const data = dataOf(await (await serviceFor(api.url)).call(nassEndpoint, { commodity: "CORN", state: "ia" }));
  assert.deepEqual(
    data.rows.map((r: any) => [r.value, r.number]),
    [
      ["2,552,400,000", 2552400000],
      ["(D)", null],
    ],
  );
});

test("nass: a query with no rows is a 404 and reads nothing more", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/api/get_counts/?commodity_desc=CORN&year=1850" },
      response: { status: 200, body: { count: 0 } },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call(nassEndpoint, { commodity: "CORN", year: 1850 }));
  assert.equal(api.calls.length, 1);
});

test("nass: a query above 50,000 rows is a 400 asking to narrow it", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/api/get_counts/?commodity_desc=CORN" },
      response: { status: 200, body: { count: 1_652_311 } },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(nassEndpoint, { commodity: "CORN" });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /50,000/);
});

test("nass: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/api/get_counts/?commodity_desc=CORN", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(nassEndpoint, { commodity: "CORN" }));
});

test("nass: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/nass"), "commodity");
  await expectFree400(await service.request("/v1/nass?commodity=CORN&state=Iowa"), "state");
  await expectFree400(await service.request("/v1/nass?commodity=CORN&level=CITY"), "level");
  assert.equal(api.calls.length, 0);
});

test("nass: without a key the endpoint is not mounted", async () => {
  const service = await publicdataService({});
  assert.ok(service.runtime.disabled.some((d: { name: string }) => d.name === "nass"));
  assert.ok(!service.runtime.endpoints.some((e) => e.name === "nass"));
});
