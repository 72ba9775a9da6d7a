import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import water from "../../../plugins/publicdata/water.ts";
import { boundingBox } from "../../../plugins/publicdata/_pr-usgs-water.ts";
import waterEndpoint from "../../../plugins/publicdata/water.ts";

const dir = new URL("./fixtures/", import.meta.url);
const docs = "https://waterservices.usgs.gov/docs/instantaneous-values/";
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_USGS_WATER_URL: url, UPSTREAM_OPEN_METEO_GEOCODING_URL: url },
  });
const sitePath = (site: string) => `/nwis/iv/?format=json&parameterCd=00060,00065&sites=${site}&siteStatus=all`;

test("water: a named gage's latest discharge and gage height, with units, local times and qualifiers", async (t) => {
  const api = await serveFixtures(t, ["usgs-water.blantyre"], { dir });
  const out = await (await serviceFor(api.url)).call(waterEndpoint, water.example.input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), water.example.output);
});

test("water: coordinates list the gages in range nearest first; a no-data value is null", async (t) => {
  const api = await serveFixtures(t, ["usgs-water.near-hendersonville"], { dir, reuse: true });
  const service = await serviceFor(api.url);
  const data = (await service.call(waterEndpoint, { lat: 35.36, lon: -82.59 })).body as any;
  const sites = data.data.sites;
  assert.deepEqual(
    sites.map((s: any) => [s.id, s.distanceKm]),
    [
      ["03443000", 7.4],
      ["03447687", 8.4],
    ],
  );
  assert.deepEqual(sites[1].readings, [
    {
      parameter: "00060",
      name: "discharge",
      description: "Discharge, cubic feet per second",
      unit: "ft3/s",
      value: null,
      time: "2024-09-28T23:30:00-04:00",
      provisional: true,
      qualifiers: ["P", "Rat"],
      method: null,
    },
  ]);
  assert.equal(sites[1].url, "https://waterdata.usgs.gov/monitoring-location/USGS-03447687/");
  assert.equal(data.data.location.resolvedFrom, "coordinates");
  const one = (await service.call(waterEndpoint, { lat: 35.36, lon: -82.59, limit: 1 })).body as any;
  assert.deepEqual(
    one.data.sites.map((s: any) => s.id),
    ["03443000"],
  );
});

test("water: an unknown site, or a point with no gage around (USGS answers 404), is a 404", async (t) => {
  const noSites = { status: 404, body: "No sites found matching all criteria" };
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no matching site: HTTP 404 with a plain-text message)`,
      request: { method: "GET", path: sitePath("99999999") },
      response: noSites,
    },
    {
      source: `${docs} (bBox with no active site: HTTP 404)`,
      request: {
        method: "GET",
        path: `/nwis/iv/?format=json&parameterCd=00060,00065&bBox=${boundingBox(48.85, 2.35, 25)}&siteStatus=active`,
      },
      response: noSites,
    },
  ]);
  const service = await serviceFor(api.url);
  for (const input of [{ site: "99999999" }, { lat: 48.85, lon: 2.35 }]) {
    const out = await service.call(waterEndpoint, input);
    assert.equal(out.status, 404, JSON.stringify(out.body));
  }
  assert.equal(api.calls.length, 2);
});

test("water: a site with no discharge or gage height series is a 404", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: `${docs} (a site without these parameters: an empty timeSeries list)`,
        request: { method: "GET", path: sitePath("01646502") },
        response: {
          status: 200,
          body: {
            name: "ns1:timeSeriesResponseType",
            declaredType: "org.cuahsi.waterml.TimeSeriesResponseType",
            scope: "javax.xml.bind.JAXBElement$GlobalScope",
            value: {
              queryInfo: {
                criteria: { locationParam: "[ALL:01646502]", variableParam: "[00060, 00065]", parameter: [] },
                note: [],
              },
              timeSeries: [],
            },
            nil: false,
            globalScope: true,
            typeSubstituted: false,
          },
        },
      },
    ],
    { dir },
  );
  const out = await (await serviceFor(api.url)).call(waterEndpoint, { site: "01646502" });
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.match(JSON.stringify(out.body), /01646502/);
});

test("water: a failing USGS service is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: docs,
        request: { method: "GET", path: sitePath("03443000") },
        response: { status: 503, body: "Service Unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(waterEndpoint, { site: "03443000" });
  assert.equal(out.status, 502, JSON.stringify(out.body));
});

test("water: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/water"), "site");
  await expectFree400(await service.request("/v1/water?site=0344"), "site");
  await expectFree400(await service.request("/v1/water?site=03443000&place=Asheville"), "place");
  await expectFree400(await service.request("/v1/water?lat=35.3"), "lon");
  await expectFree400(await service.request("/v1/water?lat=35.3&lon=-82.6&radiusKm=500"), "radiusKm");
  await expectFree400(await service.request("/v1/water?site=03443000&limit=0"), "limit");
  assert.equal(api.calls.length, 0);
});
