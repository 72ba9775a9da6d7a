import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import holidaysEndpoint from "../../../plugins/publicdata/holidays.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["publicdata"], env: { UPSTREAM_NAGER_DATE_URL: url } });
const answer = (path: string, status: number, body: unknown) => ({
  source: "https://date.nager.at/Api (v3 PublicHolidays; unsupported countries 404)",
  request: { method: "GET", path },
  response: { status, body },
});

test("holidays: national and regional holidays from Nager.Date", async (t) => {
  const api = await serveFixtures(t, ["nager-date.at-2025"], { dir });
  const out = await (await serviceFor(api.url)).call(holidaysEndpoint, { country: "at", year: 2025 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual([data.country, data.count, data.source], ["AT", 3, "nager-date"]);
  assert.deepEqual(data.holidays[1], {
    date: "2025-03-19",
    name: "Saint Joseph's Day",
    localName: "Josef",
    global: false,
    regions: ["AT-2", "AT-6", "AT-7", "AT-8"],
    types: ["Public"],
  });
});

test("holidays: a region keeps national holidays and its own", async (t) => {
  const api = await serveFixtures(t, ["nager-date.at-2025"], { dir });
  const data = (
    (await (await serviceFor(api.url)).call(holidaysEndpoint, { country: "AT", year: 2025, region: "at-9" }))
      .body as any
  ).data;
  assert.deepEqual(
    data.holidays.map((h: any) => h.localName),
    ["Neujahr", "Leopold"],
  );
});

test("holidays: a country Nager.Date lacks is answered from the bundled rules", async (t) => {
  const api = await serveFixtures(t, [answer("/PublicHolidays/2025/IN", 404, "")]);
  const data = dataOf(await (await serviceFor(api.url)).call(holidaysEndpoint, { country: "IN", year: 2025 }));
  assert.match(data.source, /^date-holidays@\d/);
  assert.ok(
    data.holidays.some((h: any) => h.date === "2025-01-26"),
    JSON.stringify(data.holidays.map((h: any) => h.date)),
  );
});

test("holidays: when Nager.Date is down the bundled rules answer; a country neither knows stays a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [answer("/PublicHolidays/2025/FR", 500, "error"), answer("/PublicHolidays/2025/QQ", 500, "error")],
    { reuse: true },
  );
  const service = await serviceFor(api.url);
  const fr = dataOf(await service.call(holidaysEndpoint, { country: "FR", year: 2025 }));
  assert.match(fr.source, /^date-holidays@/);
  assert.ok(
    fr.holidays.some(
      (h: any) => h.date === "2025-07-14" && h.name === "Bastille Day" && h.localName === "Fête Nationale de la France",
    ),
    JSON.stringify(fr.holidays),
  );
  const out = await service.call(holidaysEndpoint, { country: "QQ", year: 2025 });
  assert.equal(out.status, 502);
});

test("holidays: the year defaults to this year", async (t) => {
  const year = new Date().getUTCFullYear();
  const api = await serveFixtures(t, [answer(`/PublicHolidays/${year}/AT`, 200, [])]);
  const data = dataOf(await (await serviceFor(api.url)).call(holidaysEndpoint, { country: "AT" }));
  assert.deepEqual([data.year, data.count], [year, 0]);
});

test("holidays: an unknown country is a 404", async (t) => {
  const api = await serveFixtures(t, [answer("/PublicHolidays/2025/QQ", 404, "")]);
  const out = await (await serviceFor(api.url)).call(holidaysEndpoint, { country: "QQ", year: 2025 });
  assert.equal(out.status, 404);
});

test("holidays: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/holidays?year=2025"), "country");
  await expectFree400(await service.request("/v1/holidays?country=DE&year=1800"), "year");
  await expectFree400(await service.request("/v1/holidays?country=DE&year=2025&region=Bavaria"), "region");
  assert.equal(api.calls.length, 0);
});
