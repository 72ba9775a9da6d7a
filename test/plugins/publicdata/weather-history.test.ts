import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import weatherHistory from "../../../plugins/publicdata/weather-history.ts";
import weatherHistoryCity from "../../../plugins/publicdata/weather-history-city.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_OPEN_METEO_ARCHIVE_URL: url, UPSTREAM_OPEN_METEO_GEOCODING_URL: url },
  });

test("weather-history: daily past weather for coordinates, with units", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-archive.london"], { dir });
  const out = await (await serviceFor(api.url)).call(weatherHistory, {
    lat: 51.5072,
    lon: -0.1276,
    start: "2024-07-01",
    end: "2024-07-02",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.zone, "Europe/London");
  assert.deepEqual(data.days[1], {
    date: "2024-07-02",
    temperatureMax: 17.6,
    temperatureMin: 12.4,
    temperatureMean: 14.9,
    precipitationSum: 1.4,
    windSpeedMax: 21.3,
    weatherCode: 53,
    weather: "moderate drizzle",
  });
  assert.deepEqual([data.units.temperatureMean, data.units.precipitationSum], ["°C", "mm"]);
  assert.equal(data.location.resolvedFrom, "coordinates");
});

test("weather-history-city: the city is geocoded once, imperial units stated", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-geocoding.lisbon-1", "open-meteo-archive.lisbon-imperial"], { dir });
  const out = await (await serviceFor(api.url)).call(weatherHistoryCity, {
    city: "Lisbon",
    country: "PT",
    start: "2024-08-15",
    units: "imperial",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.location, {
    lat: 38.71667,
    lon: -9.13333,
    name: "Lisbon",
    countryCode: "PT",
    resolvedFrom: "geocode",
  });
  assert.deepEqual(
    data.days.map((d: any) => [d.date, d.temperatureMax, d.weather]),
    [["2024-08-15", 85.6, "clear sky"]],
  );
  assert.equal(data.units.temperatureMax, "°F");
});

test("weather-history-city: an unknown city is a 404 and the archive is not asked", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://open-meteo.com/en/docs/geocoding-api (no match: no results field)",
      request: { method: "GET", path: "/v1/search?name=Xqzzyville&count=1&language=en&format=json" },
      response: { status: 200, body: { generationtime_ms: 0.4 } },
    },
  ]);
  const out = await (await serviceFor(api.url)).call(weatherHistoryCity, {
    city: "Xqzzyville",
    start: "2024-08-15",
  });
  assert.equal(out.status, 404);
  assert.equal(api.calls.length, 1);
});

test("weather-history: a failing archive is a 502", async (t) => {
  const fixture = JSON.parse(
    JSON.stringify((await import("./fixtures/open-meteo-archive.london.json", { with: { type: "json" } })).default),
  );
  fixture.response = { status: 502, body: "Bad Gateway" };
  const api = await serveFixtures(t, [fixture], { reuse: true });
  const out = await (await serviceFor(api.url)).call(weatherHistory, {
    lat: 51.5072,
    lon: -0.1276,
    start: "2024-07-01",
    end: "2024-07-02",
  });
  assert.equal(out.status, 502);
});

test("weather-history: ranges that are reversed, too long, impossible or in the future are 400s before any call", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  const cases = [
    [{ start: "2024-07-02", end: "2024-07-01" }, "end"],
    [{ start: "2020-01-01", end: "2021-12-31" }, "end"],
    [{ start: "2024-02-30" }, "start"],
    [{ start: "1930-01-01" }, "start"],
    [{ start: "2999-01-01" }, "end"],
  ] as const;
  for (const [range, field] of cases) {
    const out = await service.call(weatherHistory, { lat: 51.5, lon: 0, ...range });
    assert.equal(out.status, 400, JSON.stringify(range));
    assert.equal(issuesOf(out)[0].field, field, JSON.stringify(range));
  }
  assert.equal(api.calls.length, 0);
});

test("weather-history: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/weather-history?lat=51&lon=0"), "start");
  await expectFree400(await service.request("/v1/weather-history?lat=51&lon=0&start=2024/07/01"), "start");
  await expectFree400(await service.request("/v1/weather-history-city?start=2024-07-01"), "city");
  await expectFree400(await service.request("/v1/weather-history-city?city=Lisbon&start=2024-07-01&units=si"), "units");
  assert.equal(api.calls.length, 0);
});
