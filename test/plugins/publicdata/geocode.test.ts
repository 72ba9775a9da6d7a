import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import geocodeEndpoint from "../../../plugins/publicdata/geocode.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["publicdata"], env: { UPSTREAM_OPEN_METEO_GEOCODING_URL: url } });

test("geocode: places matching a name, in our shape", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-geocoding.berlin"], { dir });
  const out = await (await serviceFor(api.url)).call(geocodeEndpoint, { q: "Berlin", country: "DE", limit: 1 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [berlin] = dataOf(out).places;
  assert.deepEqual(
    [berlin.geonameId, berlin.lat, berlin.lon, berlin.zone, berlin.countryCode, berlin.admin2],
    [2950159, 52.52437, 13.41053, "Europe/Berlin", "DE", null],
  );
  assert.equal(api.calls.length, 1);
});

test("geocode: no match is a 404", async (t) => {
  const api = await serveFixtures(t, ["open-meteo-geocoding.none"], { dir });
  const out = await (await serviceFor(api.url)).call(geocodeEndpoint, { q: "Xqzzyville" });
  assert.equal(out.status, 404);
  assert.equal(errorOf(out).code, "not_found");
});

test("geocode: a failing geocoder is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://open-meteo.com/en/docs/geocoding-api",
        request: { method: "GET", path: "/v1/search?name=Berlin&count=5&language=en&format=json" },
        response: { status: 503, body: "unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(geocodeEndpoint, { q: "Berlin" });
  assert.equal(out.status, 502);
});

test("geocode: a configured key is sent as apikey (paid plan)", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://open-meteo.com/en/pricing (commercial: customer- host plus &apikey=)",
      request: { method: "GET", path: "/v1/search?name=Xqzzyville&count=5&language=en&format=json&apikey=k123" },
      response: { status: 200, body: { generationtime_ms: 0.4 } },
    },
  ]);
  const service = await startTestService({
    plugins: ["publicdata"],
    env: { UPSTREAM_OPEN_METEO_GEOCODING_URL: api.url, UPSTREAM_OPEN_METEO_GEOCODING_KEY: "k123" },
  });
  assert.equal((await service.call(geocodeEndpoint, { q: "Xqzzyville" })).status, 404);
  assert.equal(api.calls.length, 1);
});

test("geocode: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/geocode"), "q");
  await expectFree400(await service.request("/v1/geocode?q=Berlin&limit=101"), "limit");
  await expectFree400(await service.request("/v1/geocode?q=Berlin&language=German"), "language");
  assert.equal(api.calls.length, 0);
});
