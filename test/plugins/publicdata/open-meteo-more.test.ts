import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import airQuality from "../../../plugins/publicdata/air-quality.ts";
import elevationEndpoint from "../../../plugins/publicdata/elevation.ts";
import marineEndpoint from "../../../plugins/publicdata/marine.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["publicdata"],
    env: {
      UPSTREAM_OPEN_METEO_URL: url,
      UPSTREAM_OPEN_METEO_GEOCODING_URL: url,
      UPSTREAM_OPEN_METEO_MARINE_URL: url,
      UPSTREAM_OPEN_METEO_AIR_QUALITY_URL: url,
    },
  });
const failing = (path: string) => ({
  source: "https://open-meteo.com/en/docs",
  request: { method: "GET", path },
  response: { status: 500, body: { error: true, reason: "Internal error" } },
});

test("air-quality: current values and hourly forecast, with units", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-air-quality.paris"], { dir });
  const out = await (await serviceFor(api.url)).call(airQuality, { lat: 48.8566, lon: 2.3522, hours: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual([data.current.usAqi, data.current.pm2_5, data.current.uvIndex], [61, 17.6, 3.15]);
  assert.deepEqual(
    data.hourly.map((h: any) => h.europeanAqi),
    [44, 46],
  );
  assert.deepEqual([data.units.pm2_5, data.units.usAqi], ["μg/m³", "USAQI"]);
});

test("air-quality: a failing API is a 502; bad input is a free 400", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "/v1/air-quality?latitude=1&longitude=2&current=us_aqi,european_aqi,pm2_5,pm10,ozone,nitrogen_dioxide,sulphur_dioxide,carbon_monoxide,dust,uv_index&hourly=us_aqi,european_aqi,pm2_5,pm10&timezone=auto&forecast_hours=24",
      ),
    ],
    { reuse: true },
  );
  const service = await serviceFor(api.url);
  assert.equal((await service.call(airQuality, { lat: 1, lon: 2 })).status, 502);
  const before = api.calls.length;
  await expectFree400(await service.request("/v1/air-quality?lat=1&lon=2&hours=500"), "hours");
  await expectFree400(await service.request("/v1/air-quality?lat=100&lon=2"), "lat");
  assert.equal(api.calls.length, before);
});

test("air-quality: an unknown place is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://open-meteo.com/en/docs/geocoding-api (no match)",
      request: { method: "GET", path: "/v1/search?name=Xqzzyville&count=1&language=en&format=json" },
      response: { status: 200, body: { generationtime_ms: 0.3 } },
    },
  ]);
  assert.equal((await (await serviceFor(api.url)).call(airQuality, { place: "Xqzzyville" })).status, 404);
});

test("marine: waves, swell and sea temperature at sea", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-marine.biarritz"], { dir });
  const out = await (await serviceFor(api.url)).call(marineEndpoint, { lat: 43.48, lon: -1.56, hours: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.atSea, true);
  assert.deepEqual(
    [data.current.waveHeight, data.current.swellWavePeriod, data.current.seaSurfaceTemperature],
    [1.52, 10.5, 17.4],
  );
  assert.equal(data.hourly.length, 2);
  assert.equal(data.units.waveHeight, "m");
});

test("marine: a point on land has no sea data and says so", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-marine.inland"], { dir });
  const data = (
    (await (await serviceFor(api.url)).call(marineEndpoint, { lat: 48.1, lon: 11.6, hours: 1 })).body as any
  ).data;
  assert.equal(data.atSea, false);
  assert.equal(data.current.waveHeight, null);
});

test("marine: a failing API is a 502; bad input is a free 400", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "/v1/marine?latitude=1&longitude=2&current=wave_height,wave_direction,wave_period,swell_wave_height,swell_wave_direction,swell_wave_period,wind_wave_height,sea_surface_temperature,ocean_current_velocity,ocean_current_direction&hourly=wave_height,wave_direction,wave_period,swell_wave_height,sea_surface_temperature&timezone=auto&forecast_hours=24",
      ),
    ],
    { reuse: true },
  );
  const service = await serviceFor(api.url);
  const out = await service.call(marineEndpoint, { lat: 1, lon: 2 });
  assert.equal(out.status, 502);
  const before = api.calls.length;
  await expectFree400(await service.request("/v1/marine?lat=1&lon=2&hours=0"), "hours");
  assert.equal(api.calls.length, before);
});

test("elevation: several points in one call", async (t) => {
  const api = await serveFixtures(t, ["open-meteo.elevation-two"], { dir });
  const out = await (await serviceFor(api.url)).call(elevationEndpoint, { points: "45.8326,6.8652;27.9881,86.925" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(
    dataOf(out).points.map((p: any) => p.elevation),
    [4789, 8794],
  );
  assert.equal(dataOf(out).unit, "m");
});

test("elevation: a place is geocoded first", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "open-meteo-geocoding.paris-1",
      {
        source: "https://open-meteo.com/en/docs/elevation-api",
        request: { method: "GET", path: "/v1/elevation?latitude=48.85341&longitude=2.3488" },
        response: { status: 200, body: { elevation: [42.0] } },
      },
    ],
    { dir },
  );
  const data = (
    (await (await serviceFor(api.url)).call(elevationEndpoint, { place: "Paris", country: "FR" })).body as any
  ).data;
  assert.deepEqual(data.points, [{ lat: 48.85341, lon: 2.3488, name: "Paris", elevation: 42 }]);
});

test("elevation: an unknown place is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://open-meteo.com/en/docs/geocoding-api (no match)",
      request: { method: "GET", path: "/v1/search?name=Xqzzyville&count=1&language=en&format=json" },
      response: { status: 200, body: { generationtime_ms: 0.3 } },
    },
  ]);
  assert.equal((await (await serviceFor(api.url)).call(elevationEndpoint, { place: "Xqzzyville" })).status, 404);
});

test("elevation: a failing API is a 502; bad points are a 400 before any call", async (t) => {
  const api = await serveFixtures(t, [failing("/v1/elevation?latitude=1&longitude=2")], { reuse: true });
  const service = await serviceFor(api.url);
  assert.equal((await service.call(elevationEndpoint, { lat: 1, lon: 2 })).status, 502);
  const before = api.calls.length;
  assert.equal((await service.call(elevationEndpoint, { points: "95,1" })).status, 400);
  assert.equal((await service.call(elevationEndpoint, { points: "1,1", lat: 1, lon: 1 })).status, 400);
  await expectFree400(await service.request("/v1/elevation?points=1;2"), "points");
  assert.equal(api.calls.length, before);
});
