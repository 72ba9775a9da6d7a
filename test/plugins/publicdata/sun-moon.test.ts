import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import moonEndpoint from "../../../plugins/publicdata/moon.ts";
import sunEndpoint from "../../../plugins/publicdata/sun.ts";

const service = await startTestService({ plugins: ["publicdata"] });
const data = async (name: string, input: unknown) => {
  const out = await service.call(name, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

test("sun: Greenwich at the June solstice, in local summer time", async () => {
  const sun = await data("sun", { lat: 51.4779, lon: -0.0015, date: "2025-06-21" });
  assert.equal(sun.zone, "Europe/London");
  assert.match(sun.sunrise, /^2025-06-21T04:4\d:\d\d\+01:00$/);
  assert.match(sun.sunset, /^2025-06-21T21:2\d:\d\d\+01:00$/);
  assert.equal(sun.astronomicalDawn, null);
  assert.ok(sun.dayLengthSeconds > 16.5 * 3600 && sun.dayLengthSeconds < 16.7 * 3600);
  assert.equal(sun.polar, null);
  assert.equal(sun.dataset.astronomy, "suncalc@2.0.2");
});

test("sun: polar day and polar night at Svalbard", async () => {
  const summer = await data("sun", { lat: 78.22, lon: 15.65, date: "2025-06-21" });
  assert.deepEqual([summer.polar, summer.sunrise, summer.dayLengthSeconds], ["day", null, 86400]);
  const winter = await data("sun", { lat: 78.22, lon: 15.65, date: "2025-12-21" });
  assert.deepEqual([winter.polar, winter.sunset, winter.dayLengthSeconds], ["night", null, 0]);
  assert.ok(winter.noonAltitudeDegrees < 0);
});

test("sun: a given zone is used and stated", async () => {
  const sun = await data("sun", { lat: 40.7128, lon: -74.006, date: "2025-01-01", zone: "UTC" });
  assert.equal(sun.zone, "UTC");
  assert.match(sun.sunrise, /^2025-01-01T12:\d\d:\d\dZ$/);
  assert.equal(sun.dataset.zone, null);
});

test("sun: an unknown zone or impossible date is a 400", async () => {
  assert.equal((await service.call(sunEndpoint, { lat: 0, lon: 0, zone: "Nowhere/Land" })).status, 400);
  assert.equal((await service.call(sunEndpoint, { lat: 0, lon: 0, date: "2025-02-30" })).status, 400);
});

test("sun: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/sun?lon=0"), "lat");
  await expectFree400(await service.request("/v1/sun?lat=0&lon=181"), "lon");
  await expectFree400(await service.request("/v1/sun?lat=0&lon=0&date=21-06-2025"), "date");
});

test("moon: the full moon of 7 September 2025 with rise and set in Paris", async () => {
  const moon = await data("moon", { date: "2025-09-07", lat: 48.8566, lon: 2.3522 });
  assert.equal(moon.phase, "full moon");
  assert.ok(moon.illuminatedFraction > 0.99);
  assert.match(moon.next.fullMoon, /^2025-09-07T18:/);
  assert.equal(moon.place.zone, "Europe/Paris");
  assert.match(moon.place.moonrise, /^2025-09-07T20:\d\d:\d\d\+02:00$/);
});

test("moon: the new moon of 29 January 2025 without a place", async () => {
  const moon = await data("moon", { date: "2025-01-29" });
  assert.equal(moon.phase, "new moon");
  assert.ok(moon.illuminatedFraction < 0.01);
  assert.ok(moon.ageDays > 29);
  assert.match(moon.next.newMoon, /^2025-01-29T12:3/);
  assert.equal(moon.place, null);
});

test("moon: a half place is a 400 naming the missing field", async () => {
  const out = await service.call(moonEndpoint, { date: "2025-01-29", lat: 10 });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "lon");
});

test("moon: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/moon?date=2025-13-01"), "date");
  await expectFree400(await service.request("/v1/moon?lat=-91&lon=0"), "lat");
});
