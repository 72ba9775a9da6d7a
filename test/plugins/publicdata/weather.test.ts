import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import weatherEndpoint from "../../../plugins/publicdata/weather.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_OPEN_METEO_URL: url, UPSTREAM_OPEN_METEO_GEOCODING_URL: url },
  });

test("weather: current and daily forecast for coordinates, with units", async (t) => {
  const api = await serveFixtures(t, ["open-meteo.forecast-berlin"], { dir });
  const out = await (await serviceFor(api.url)).call(weatherEndpoint, { lat: 52.52, lon: 13.41, days: 2 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.location, {
    lat: 52.52,
    lon: 13.41,
    name: null,
    countryCode: null,
    resolvedFrom: "coordinates",
  });
  assert.equal(data.zone, "Europe/Berlin");
  assert.deepEqual(data.current, {
    time: "2025-01-15T12:00",
    temperature: 2.6,
    apparentTemperature: -1.4,
    humidity: 81,
    precipitation: 0,
    windSpeed: 12.3,
    windDirection: 245,
    weatherCode: 3,
    weather: "overcast",
  });
  assert.equal(data.daily.length, 2);
  assert.deepEqual(
    [data.daily[1].date, data.daily[1].weather, data.daily[1].temperatureMin],
    ["2025-01-16", "slight snow fall", -2.7],
  );
  assert.equal(data.units.temperature, "°C");
  assert.equal(data.units.windSpeedMax, "km/h");
});

test("weather: a place name is geocoded once, and imperial units are asked for and stated", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-geocoding.paris-1", "open-meteo.forecast-paris-imperial"], { dir });
  const out = await (await serviceFor(api.url)).call(weatherEndpoint, {
    place: "Paris",
    country: "FR",
    units: "imperial",
    days: 1,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.location, {
    lat: 48.85341,
    lon: 2.3488,
    name: "Paris",
    countryCode: "FR",
    resolvedFrom: "geocode",
  });
  assert.deepEqual([data.units.temperature, data.units.precipitation, data.current.temperature], ["°F", "inch", 95.4]);
  assert.equal(api.calls.length, 2);
});

test("weather: a place nobody knows is a 404, and the forecast is not asked for", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://open-meteo.com/en/docs/geocoding-api (no match: no results field)",
      request: { method: "GET", path: "/v1/search?name=Xqzzyville&count=1&language=en&format=json" },
      response: { status: 200, body: { generationtime_ms: 0.4 } },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(weatherEndpoint, { place: "Xqzzyville" });
  assert.equal(out.status, 404);
  assert.equal(api.calls.length, 1);
});

test("weather: a failing forecast API is a 502", async (t) => {
  const fixture = JSON.parse(
    JSON.stringify((await import("./fixtures/open-meteo.forecast-berlin.json", { with: { type: "json" } })).default),
  );
  fixture.response = { status: 500, body: { error: true, reason: "Internal error" } };
  const api = await serveFixtures(t, [fixture], { reuse: true });
  const out = await (await serviceFor(api.url)).call(weatherEndpoint, { lat: 52.52, lon: 13.41, days: 2 });
  assert.equal(out.status, 502);
});

test("weather: both or neither of place and coordinates is a 400", async () => {
  const service = await serviceFor("http://127.0.0.1:9");
  for (const input of [{}, { lat: 1, lon: 2, place: "Paris" }, { lat: 1 }])
    assert.equal((await service.call(weatherEndpoint, input)).status, 400, JSON.stringify(input));
});

test("weather: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/weather?lat=52&lon=13&units=kelvin"), "units");
  await expectFree400(await service.request("/v1/weather?lat=52&lon=13&days=17"), "days");
  await expectFree400(await service.request("/v1/weather?place=P"), "place");
  assert.equal(api.calls.length, 0);
});
