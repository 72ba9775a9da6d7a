import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import timezonesEndpoint from "../../../plugins/publicdata/timezones.ts";

const service = await startTestService({ plugins: ["publicdata"] });

test("timezones: the zones of a country with their offsets at a given instant", async () => {
  const out = await service.call(timezonesEndpoint, { country: "au", at: "2025-01-15T12:00:00Z" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.count, data.zones.length);
  const names = data.zones.map((z: any) => z.zone);
  assert.ok(names.includes("Australia/Sydney") && names.includes("Australia/Perth"), names.join());
  assert.deepEqual(names, [...names].sort());
  const sydney = data.zones.find((z: any) => z.zone === "Australia/Sydney")!;
  assert.deepEqual([sydney.utcOffset, sydney.dst], ["+11:00", true]);
  assert.equal(data.zones.find((z: any) => z.zone === "Australia/Brisbane")!.dst, false);
  assert.equal(data.dataset.zoneTable, "2025b");
});

test("timezones: a text filter matches names and descriptions", async () => {
  const data = dataOf(await service.call(timezonesEndpoint, { q: "kolkata" }));
  assert.deepEqual(
    data.zones.map((z: any) => z.zone),
    ["Asia/Kolkata"],
  );
  assert.equal(data.zones[0].utcOffset, "+05:30");
});

test("timezones: without filters every zone is listed", async () => {
  const data = dataOf(await service.call(timezonesEndpoint, {}));
  assert.ok(data.count > 300, String(data.count));
});

test("timezones: a country with no zones gives an empty list", async () => {
  const data = dataOf(await service.call(timezonesEndpoint, { country: "XX" }));
  assert.deepEqual([data.count, data.zones], [0, []]);
});

test("timezones: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/timezones?country=FRA"), "country");
  await expectFree400(await service.request("/v1/timezones?at=2025-01-15"), "at");
  await expectFree400(await service.request("/v1/timezones?q=a"), "q");
});
