import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import timezoneEndpoint from "../../../plugins/publicdata/timezone.ts";

const service = await startTestService({ plugins: ["publicdata"] });

test("timezone: a zone by name at a given instant, converted to another zone", async () => {
  const out = await service.call(timezoneEndpoint, {
    zone: "America/New_York",
    time: "2025-07-01T12:00:00Z",
    to: "Asia/Tokyo",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.local, "2025-07-01T08:00:00-04:00");
  assert.equal(data.dst, true);
  assert.equal(data.abbreviation, "EDT");
  assert.deepEqual(data.countries, ["US"]);
  assert.equal(data.converted!.local, "2025-07-01T21:00:00+09:00");
  assert.equal(data.dataset.zoneTable, "2025b");
  assert.equal(data.dataset.tzdata, process.versions.tz);
});

test("timezone: coordinates resolve to a zone; winter time has no DST", async () => {
  const data = (
    (await service.call(timezoneEndpoint, { lat: -33.87, lon: 151.21, time: "2025-07-01T00:00:00Z" })).body as any
  ).data;
  assert.equal(data.zone, "Australia/Sydney");
  assert.equal(data.resolvedFrom, "coordinates");
  assert.equal(data.utcOffset, "+10:00");
  assert.equal(data.dst, false);
  assert.match(data.dataset.coordinates, /^@photostructure\/tz-lookup@\d/);
});

test("timezone: a wall time without offset is read in the zone, and a skipped time moves forward", async () => {
  const data = (
    (await service.call(timezoneEndpoint, { zone: "Europe/Paris", time: "2025-03-30T02:30:00" })).body as any
  ).data;
  assert.equal(data.local, "2025-03-30T03:30:00+02:00");
  assert.equal(data.utc, "2025-03-30T01:30:00Z");
});

test("timezone: without a time it answers for now", async () => {
  const data = dataOf(await service.call(timezoneEndpoint, { zone: "UTC" }));
  assert.ok(Math.abs(Date.parse(data.utc) - Date.now()) < 60_000, data.utc);
});

test("timezone: an unknown zone is a 400 naming the field", async () => {
  for (const [input, field] of [
    [{ zone: "Mars/Olympus" }, "zone"],
    [{ zone: "UTC", to: "Nowhere/City" }, "to"],
    [{ lat: 10 }, "lon"],
    [{}, "zone"],
  ] as const) {
    const out = await service.call(timezoneEndpoint, input);
    assert.equal(out.status, 400, JSON.stringify(input));
    assert.equal(issuesOf(out)[0].field, field);
  }
});

test("timezone: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/timezone?lat=91&lon=0"), "lat");
  await expectFree400(await service.request("/v1/timezone?zone=UTC&time=yesterday"), "time");
  await expectFree400(await service.request("/v1/timezone?zone=..%2F..%2Fetc"), "zone");
});
