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
import energy from "../../../plugins/publicdata/energy.ts";

const key = "test-eia-key";
const serviceFor = (url: string) => publicdataService({ UPSTREAM_EIA_URL: `${url}/v2`, UPSTREAM_EIA_KEY: key });
const docs = "https://www.eia.gov/opendata/documentation.php";
const sorted = "sort[0][column]=period&sort[0][direction]=desc";

test("energy: WTI spot prices, newest first, with the key on the request", async (t) => {
  const api = await serveFixtures(t, ["eia.wti-latest"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("energy", energy.example.input));
  assert.deepEqual(data, energy.example.output);
  assert.equal(new URL(api.calls[0].path, api.url).searchParams.get("api_key"), key);
});

test("energy: monthly residential electricity by state uses its own route, column and month range", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (electricity/retail-sales: rows carry stateid, stateDescription, sectorid, price and price-units)`,
      request: {
        method: "GET",
        path: `/v2/electricity/retail-sales/data/?frequency=monthly&data[0]=price&${sorted}&start=2024-09&end=2024-10&length=30&facets[stateid][]=CA&facets[sectorid][]=RES`,
      },
      response: {
        status: 200,
        body: {
          response: {
            total: 2,
            dateFormat: "YYYY-MM",
            frequency: "monthly",
            data: [
              {
                period: "2024-10",
                stateid: "CA",
                stateDescription: "California",
                sectorid: "RES",
                sectorName: "residential",
                price: "32.45",
                "price-units": "cents per kilowatt-hour",
              },
              {
                period: "2024-09",
                stateid: "CA",
                stateDescription: "California",
                sectorid: "RES",
                sectorName: "residential",
                price: "33.1",
                "price-units": "cents per kilowatt-hour",
              },
            ],
            description: "Electricity sales to ultimate customers by state and sector",
          },
          apiVersion: "2.1.8",
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call("energy", {
      series: "electricity-residential",
      state: "ca",
      start: "2024-09-15",
      end: "2024-10-31",
    }),
  );
  assert.deepEqual(
    [data.title, data.unit, data.frequency, data.total],
    ["Average residential electricity price, California", "cents per kilowatt-hour", "monthly", 2],
  );
  assert.deepEqual(data.observations, [
    { period: "2024-10", value: "32.45" },
    { period: "2024-09", value: "33.1" },
  ]);
});

test("energy: a range with no data is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: {
        method: "GET",
        path: `/v2/petroleum/pri/spt/data/?frequency=daily&data[0]=value&${sorted}&start=1970-01-01&end=1970-12-31&length=30&facets[series][]=RBRTE`,
      },
      response: {
        status: 200,
        body: { response: { total: "0", dateFormat: "YYYY-MM-DD", frequency: "daily", data: [] }, apiVersion: "2.1.8" },
      },
    },
  ]);
  expectNotFound(
    await (await serviceFor(api.url)).call("energy", { series: "brent", start: "1970-01-01", end: "1970-12-31" }),
  );
});

test("energy: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "GET",
        `/v2/natural-gas/pri/fut/data/?frequency=daily&data[0]=value&${sorted}&length=30&facets[series][]=RNGWHHD`,
        docs,
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("energy", { series: "henry-hub" }));
});

test("energy: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/energy"), "series");
  await expectFree400(await service.request("/v1/energy?series=uranium"), "series");
  await expectFree400(await service.request("/v1/energy?series=wti&start=2024-1-1"), "start");
  const backwards = await service.call("energy", { series: "wti", start: "2024-02-01", end: "2024-01-01" });
  assert.equal(backwards.status, 400);
  assert.equal(api.calls.length, 0);
});

test("energy: without an EIA key the endpoint is not mounted", async () => {
  const service = await publicdataService({});
  assert.ok(service.runtime.disabled.some((d: { name: string }) => d.name === "energy"));
  assert.ok(!service.runtime.endpoints.some((e) => e.name === "energy"));
});
