import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import evChargers from "../../../plugins/publicdata/ev-chargers.ts";
import evChargersEndpoint from "../../../plugins/publicdata/ev-chargers.ts";

const dir = new URL("./fixtures/", import.meta.url);
const docs = "https://openchargemap.org/site/develop/api#/operations/get-poi";
const key = "test-ocm-key";
const serviceFor = (url: string, env: Record<string, string> = { UPSTREAM_OPEN_CHARGE_MAP_KEY: key }) =>
  startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_OPEN_CHARGE_MAP_URL: url, UPSTREAM_OPEN_METEO_GEOCODING_URL: url, ...env },
  });
const poiPath = (lat: number, lon: number, distance: number, max: number) =>
  `/v3/poi?output=json&compact=false&verbose=false&latitude=${lat}&longitude=${lon}&distanceunit=KM&distance=${distance}&maxresults=${max}`;

test("ev-chargers: stations near a point, nearest first, with operator, address, connectors and the key sent as X-API-Key", async (t) => {
  const api = await serveFixtures(t, ["open-charge-map.portland"], { dir });
  const out = await (await serviceFor(api.url)).call(evChargersEndpoint, evChargers.example.input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), evChargers.example.output);
  assert.equal(api.calls[0].headers["x-api-key"], key);
  assert.equal(new URL(api.calls[0].path, api.url).searchParams.get("key"), null);
});

test("ev-chargers: connector and power filters reach Open Charge Map as its ids and kW", async (t) => {
  const api = await serveFixtures(t, ["open-charge-map.portland-tesla"], { dir });
  const out = await (await serviceFor(api.url)).call(evChargersEndpoint, {
    lat: 45.5051,
    lon: -122.675,
    radiusKm: 1,
    connector: "tesla",
    minPowerKw: 7,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [station] = dataOf(out).stations;
  assert.deepEqual(
    [station.id, station.operator, station.usage, station.status, station.points, station.distanceKm],
    [97419, "Tesla Motors (Worldwide)", "Public - Membership Required", "Operational", 2, 0.71],
  );
  assert.deepEqual(station.connectors, [
    { type: "Tesla (Model S/X)", powerKw: 8, current: "AC (Single-Phase)", count: 2, status: "Operational" },
  ]);
});

test("ev-chargers: a place is geocoded first; nothing in range is a 404", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "open-meteo-geocoding.paris-1",
      {
        source: `${docs} (no POI in range: an empty array)`,
        request: { method: "GET", path: poiPath(48.85341, 2.3488, 0.1, 10) },
        response: { status: 200, body: [] },
      },
    ],
    { dir },
  );
  const out = await (await serviceFor(api.url)).call(evChargersEndpoint, {
    place: "Paris",
    country: "FR",
    radiusKm: 0.1,
  });
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.equal(api.calls.length, 2);
});

test("ev-chargers: a failing Open Charge Map is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: docs,
        request: { method: "GET", path: poiPath(45.5051, -122.675, 5, 10) },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(evChargersEndpoint, { lat: 45.5051, lon: -122.675 });
  assert.equal(out.status, 502, JSON.stringify(out.body));
});

test("ev-chargers: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/ev-chargers"), "lat");
  await expectFree400(await service.request("/v1/ev-chargers?lat=45.5"), "lon");
  await expectFree400(await service.request("/v1/ev-chargers?lat=45.5&lon=-122.6&place=Portland"), "place");
  await expectFree400(await service.request("/v1/ev-chargers?lat=45.5&lon=-122.6&radiusKm=500"), "radiusKm");
  await expectFree400(await service.request("/v1/ev-chargers?lat=45.5&lon=-122.6&limit=101"), "limit");
  await expectFree400(await service.request("/v1/ev-chargers?lat=45.5&lon=-122.6&connector=nacs2"), "connector");
  await expectFree400(await service.request("/v1/ev-chargers?lat=95&lon=-122.6"), "lat");
  assert.equal(api.calls.length, 0);
});

test("ev-chargers: without an Open Charge Map key the endpoint is not mounted", async () => {
  const service = await startTestService({ plugins: ["publicdata"], env: {} });
  assert.ok(service.runtime.disabled.some((d: { name: string }) => d.name === "ev-chargers"));
  assert.ok(!service.runtime.endpoints.some((e) => e.name === "ev-chargers"));
});
