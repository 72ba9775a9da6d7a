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
import worldbank from "../../../plugins/publicdata/worldbank.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_WORLDBANK_URL: `${url}/v2` });
const docs = "https://datahelpdesk.worldbank.org/knowledgebase/articles/898581-api-basic-call-structures";

test("worldbank: an indicator's recent years in our shape", async (t) => {
  const api = await serveFixtures(t, ["worldbank.us-gdp"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("worldbank", worldbank.example.input)),
    worldbank.example.output,
  );
});

test("worldbank: several countries and a year range go into the path and date", async (t) => {
  const rows = (await import("./fixtures/worldbank.us-gdp.json", { with: { type: "json" } })).default.response.body;
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: {
        method: "GET",
        path: "/v2/country/DE;FR/indicator/NY.GDP.MKTP.CD?format=json&per_page=2000&date=2020:2021",
      },
      response: { status: 200, body: rows },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call("worldbank", {
      indicator: "NY.GDP.MKTP.CD",
      country: "de,fr",
      from: 2020,
      to: 2021,
    }),
  );
  assert.equal(data.total, 2);
  assert.equal(data.url, "https://data.worldbank.org/indicator/NY.GDP.MKTP.CD?locations=DE-FR");
});

test("worldbank: an unknown indicator, or no data, is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (errors come as a 200 with [{message:[{id, key, value}]}]; 175 is an unknown indicator)`,
      request: { method: "GET", path: "/v2/country/US/indicator/NO.SUCH.CODE?format=json&per_page=2000&mrv=10" },
      response: {
        status: 200,
        body: [
          {
            message: [
              {
                id: "175",
                key: "Invalid format",
                value: "The indicator was not found. It may have been deleted or archived.",
              },
            ],
          },
        ],
      },
    },
    {
      source: `${docs} (a query without data: total 0 and null rows)`,
      request: {
        method: "GET",
        path: "/v2/country/US/indicator/NY.GDP.MKTP.CD?format=json&per_page=2000&date=1960:1961",
      },
      response: {
        status: 200,
        body: [{ page: 1, pages: 0, per_page: 2000, total: 0, sourceid: null, lastupdated: "2025-01-28" }, null],
      },
    },
  ]);
  const service = await serviceFor(api.url);
  expectNotFound(await service.call("worldbank", { indicator: "NO.SUCH.CODE", country: "US" }));
  expectNotFound(await service.call("worldbank", { indicator: "NY.GDP.MKTP.CD", country: "US", from: 1960, to: 1961 }));
});

test("worldbank: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [failing("GET", "/v2/country/US/indicator/NY.GDP.MKTP.CD?format=json&per_page=2000&mrv=2", docs)],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("worldbank", worldbank.example.input));
});

test("worldbank: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/worldbank"), "indicator");
  await expectFree400(await service.request("/v1/worldbank?indicator=GDP%2F..%2F"), "indicator");
  await expectFree400(await service.request("/v1/worldbank?indicator=SP.POP.TOTL&country=USA%3BXX"), "country");
  const reversed = await service.call("worldbank", { indicator: "SP.POP.TOTL", from: 2020, to: 2010 });
  assert.equal(reversed.status, 400);
  assert.equal(api.calls.length, 0);
});
