import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import tides from "../../../plugins/publicdata/tides.ts";
import tidesEndpoint from "../../../plugins/publicdata/tides.ts";

const dir = new URL("./fixtures/", import.meta.url);
const docs = "https://api.tidesandcurrents.noaa.gov/api/prod/";
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_NOAA_COOPS_URL: url, UPSTREAM_OPEN_METEO_GEOCODING_URL: url },
  });
const predictionsPath = (station: string, day: string) =>
  `/api/prod/datagetter?product=predictions&application=x402-publicdata&station=${station}&datum=MLLW&interval=hilo&format=json&time_zone=lst_ldt&units=metric&begin_date=${day}&end_date=${day}`;

test("tides: a named station's highs and lows, local times with offsets, heights in metres above MLLW", async (t) => {
  const api = await serveFixtures(t, ["noaa-coops.tide-stations", "noaa-coops.san-francisco-20250601"], { dir });
  const out = await (await serviceFor(api.url)).call(tidesEndpoint, tides.example.input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), tides.example.output);
});

test("tides: coordinates pick the nearest station, a subordinate one here, in feet over two days", async (t) => {
  const api = await serveFixtures(t, ["noaa-coops.tide-stations", "noaa-coops.petaluma-20250115-feet"], { dir });
  const out = await (await serviceFor(api.url)).call(tidesEndpoint, {
    lat: 38.1,
    lon: -122.52,
    date: "2025-01-15",
    days: 2,
    units: "imperial",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.station.id, data.station.kind, data.station.referenceId, data.station.distanceKm],
    ["9415252", "subordinate", "9414290", 2.1],
  );
  assert.deepEqual(data.location, {
    lat: 38.1,
    lon: -122.52,
    name: null,
    countryCode: null,
    resolvedFrom: "coordinates",
  });
  assert.equal(data.unit, "ft");
  assert.equal(data.tides.length, 8);
  assert.deepEqual(data.tides[3], { time: "2025-01-15T19:49:00-08:00", type: "low", height: "-1.044" });
});

test("tides: a place far from any NOAA station is a 404, and no prediction is asked for", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-geocoding.paris-1", "noaa-coops.tide-stations"], { dir });
  const out = await (await serviceFor(api.url)).call(tidesEndpoint, { place: "Paris", country: "FR" });
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.equal(api.calls.length, 2);
});

test("tides: an unknown station id is a 404", async (t) => {
  const api = await serveFixtures(t, ["noaa-coops.tide-stations"], { dir });
  assert.equal((await (await serviceFor(api.url)).call(tidesEndpoint, { station: "9999999" })).status, 404);
});

test("tides: a failing API, or an error in a 200 answer, is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "noaa-coops.tide-stations",
      {
        source: docs,
        request: { method: "GET", path: predictionsPath("9414290", "20250601") },
        response: { status: 500, body: "error" },
      },
      {
        source: `${docs} (errors come as {error: {message}} with status 200)`,
        request: { method: "GET", path: predictionsPath("1611400", "20250601") },
        response: {
          status: 200,
          body: { error: { message: "No Predictions data was found. Please make sure the Datum input is valid." } },
        },
      },
    ],
    { dir, reuse: true },
  );
  const service = await serviceFor(api.url);
  for (const station of ["9414290", "1611400"]) {
    const out = await service.call(tidesEndpoint, { station, date: "2025-06-01", days: 1 });
    assert.equal(out.status, 502, station);
  }
  assert.match(
    JSON.stringify((await service.call(tidesEndpoint, { station: "1611400", date: "2025-06-01", days: 1 })).body),
    /No Predictions data/,
  );
});

test("tides: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/tides"), "station");
  await expectFree400(await service.request("/v1/tides?station=94142"), "station");
  await expectFree400(await service.request("/v1/tides?station=9414290&lat=37&lon=-122"), "lat");
  await expectFree400(await service.request("/v1/tides?lat=37"), "lon");
  await expectFree400(await service.request("/v1/tides?station=9414290&days=32"), "days");
  await expectFree400(await service.request("/v1/tides?station=9414290&units=kelvin"), "units");
  await expectFree400(await service.request("/v1/tides?station=9414290&date=2025-13-01"), "date");
  assert.equal(api.calls.length, 0);
});
