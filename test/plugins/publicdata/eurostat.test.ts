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
import eurostat from "../../../plugins/publicdata/eurostat.ts";
import { errorOf } from "../../helpers/expect.ts";
import eurostatEndpoint from "../../../plugins/publicdata/eurostat.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_EUROSTAT_URL: `${url}/statistics/1.0` });
const docs =
  "https://ec.europa.eu/eurostat/web/user-guides/data-browser/api-data-access/api-detailed-guidelines/api-statistics";
const dimension = (label: string, codes: Record<string, string>) => ({
  label,
  category: { index: Object.fromEntries(Object.keys(codes).map((c, i) => [c, i])), label: codes },
});

test("eurostat: a JSON-stat dataset becomes tidy observations", async (t) => {
  const api = await serveFixtures(t, ["eurostat.gdp-de"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call(eurostatEndpoint, eurostat.example.input));
  assert.deepEqual(data, eurostat.example.output);
});

test("eurostat: several countries and periods decode in row-major order, sparse cells skipped", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (value and status are sparse objects keyed by flat cell index)`,
      request: {
        method: "GET",
        path: "/statistics/1.0/data/une_rt_a?format=JSON&lang=EN&geo=DE&geo=FR&sinceTimePeriod=2022",
      },
      response: {
        status: 200,
        body: {
          version: "2.0",
          class: "dataset",
          label: "Unemployment by sex and age",
          updated: "2025-01-09T11:00:00+0100",
          value: { "0": 3.1, "1": 3.0, "3": 7.3 },
          status: { "2": ":" },
          id: ["geo", "time"],
          size: [2, 2],
          dimension: {
            geo: dimension("Geopolitical entity (reporting)", { DE: "Germany", FR: "France" }),
            time: dimension("Time", { "2022": "2022", "2023": "2023" }),
          },
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call(eurostatEndpoint, { dataset: "une_rt_a", geo: "DE,FR", since: "2022" }),
  );
  assert.deepEqual(
    data.observations.map((o: any) => [o.key.geo, o.key.time, o.value, o.status]),
    [
      ["DE", "2022", 3.1, null],
      ["DE", "2023", 3.0, null],
      ["FR", "2022", null, ":"],
      ["FR", "2023", 7.3, null],
    ],
  );
  assert.equal(data.observations[3].labels.geo, "France");
});

test("eurostat: an unknown dataset, or filters matching nothing, is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (error table: 404 Not Found, fault 100, for a resource that is not available)`,
      request: { method: "GET", path: "/statistics/1.0/data/no_such_set?format=JSON&lang=EN" },
      response: { status: 404, body: { error: [{ status: 404, id: 100, label: "NO_SUCH_SET not found" }] } },
    },
    {
      source: `${docs} (error table: 400 Bad request, fault 100 "No results found", when the query's result is empty)`,
      request: { method: "GET", path: "/statistics/1.0/data/nama_10_gdp?format=JSON&lang=EN&geo=XX" },
      response: { status: 400, body: { error: [{ status: 400, id: 100, label: "No results found" }] } },
    },
  ]);
  const service = await serviceFor(api.url);
  expectNotFound(await service.call(eurostatEndpoint, { dataset: "no_such_set" }));
  expectNotFound(await service.call(eurostatEndpoint, { dataset: "nama_10_gdp", geo: "XX" }));
});

test("eurostat: a query Eurostat refuses is a 400 with its reason", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (error table: 400 Bad request, fault 150 semantic error)`,
      request: { method: "GET", path: "/statistics/1.0/data/nama_10_gdp?format=JSON&lang=EN&colour=blue" },
      response: {
        status: 400,
        body: { error: [{ status: 400, id: 150, label: "Dimension COLOUR is not part of dataset NAMA_10_GDP" }] },
      },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(eurostatEndpoint, {
    dataset: "nama_10_gdp",
    filters: "colour=blue",
  });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /COLOUR is not part/);
});

test("eurostat: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/statistics/1.0/data/nama_10_gdp?format=JSON&lang=EN", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(eurostatEndpoint, { dataset: "nama_10_gdp" }));
});

test("eurostat: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/eurostat"), "dataset");
  await expectFree400(await service.request("/v1/eurostat?dataset=../etc"), "dataset");
  await expectFree400(await service.request("/v1/eurostat?dataset=nama_10_gdp&filters=unit%3DA%26x%3Dy"), "filters");
  assert.equal(api.calls.length, 0);
});
