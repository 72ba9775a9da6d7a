import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import earthquakesEndpoint from "../../../plugins/publicdata/earthquakes.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["publicdata"], env: { UPSTREAM_USGS_URL: url } });
const empty = (path: string) => ({
  source: "https://earthquake.usgs.gov/fdsnws/event/1/ (no events: an empty feature list)",
  request: { method: "GET", path },
  response: {
    status: 200,
    body: {
      type: "FeatureCollection",
      metadata: { generated: 1, url: "", title: "USGS Earthquakes", status: 200, api: "1.14.1", count: 0 },
      features: [],
    },
  },
});

test("earthquakes: events in a window, in our shape", async (t) => {
  const api = await serveFixtures(t, ["usgs.kamchatka"], { dir });
  const out = await (await serviceFor(api.url)).call(earthquakesEndpoint, {
    start: "2025-07-29",
    end: "2025-07-30",
    minMagnitude: 8,
    limit: 1,
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [quake] = dataOf(out).events;
  assert.deepEqual(
    [quake.id, quake.magnitude, quake.time, quake.lat, quake.lon, quake.depthKm, quake.tsunami, quake.alert],
    ["us6000qw60", 8.8, "2025-07-29T23:24:52.481Z", 52.4876, 160.2641, 35, true, "yellow"],
  );
});

test("earthquakes: the last 7 days by default, and a radius search around a point", async (t) => {
  const start = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  const api = await serveFixtures(t, [
    empty(`/fdsnws/event/1/query?format=geojson&orderby=time&starttime=${start}&minmagnitude=4.5&limit=20`),
    empty(
      `/fdsnws/event/1/query?format=geojson&orderby=time&starttime=${start}&minmagnitude=2&limit=20&latitude=35.7&longitude=139.7&maxradiuskm=100`,
    ),
  ]);
  const service = await serviceFor(api.url);
  assert.deepEqual(dataOf(await service.call(earthquakesEndpoint, {})), { count: 0, events: [] });
  assert.equal(
    (await service.call(earthquakesEndpoint, { minMagnitude: 2, lat: 35.7, lon: 139.7, radiusKm: 100 })).status,
    200,
  );
  assert.equal(api.calls.length, 2);
});

test("earthquakes: a failing catalog is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://earthquake.usgs.gov/fdsnws/event/1/",
        request: {
          method: "GET",
          path: "/fdsnws/event/1/query?format=geojson&orderby=time&starttime=2025-07-29&endtime=2025-07-30T23:59:59&minmagnitude=8&limit=1",
        },
        response: { status: 503, body: "Service Unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(earthquakesEndpoint, {
    start: "2025-07-29",
    end: "2025-07-30",
    minMagnitude: 8,
    limit: 1,
  });
  assert.equal(out.status, 502);
});

test("earthquakes: a reversed window or half point is a 400; bad input is a free 400", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  assert.equal((await service.call(earthquakesEndpoint, { start: "2025-07-30", end: "2025-07-01" })).status, 400);
  assert.equal((await service.call(earthquakesEndpoint, { lat: 10 })).status, 400);
  await expectFree400(await service.request("/v1/earthquakes?minMagnitude=11"), "minMagnitude");
  await expectFree400(await service.request("/v1/earthquakes?limit=500"), "limit");
  await expectFree400(await service.request("/v1/earthquakes?start=yesterday"), "start");
  assert.equal(api.calls.length, 0);
});
