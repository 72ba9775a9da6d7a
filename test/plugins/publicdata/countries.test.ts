import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import dialCode from "../../../plugins/publicdata/dial-code.ts";

const service = await startTestService({ plugins: ["publicdata"] });
const data = async (name: string, input: unknown) => {
  const out = await service.call(name, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};
const expectNotFound = async (name: string, input: unknown) => {
  const out = await service.call(name, input);
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.equal(errorOf(out).code, "not_found");
};

test("country: by alpha-2, alpha-3, numeric code, English and native name", async () => {
  for (const query of ["de", "DEU", "276", "Germany", "Deutschland", "germny"]) {
    const country = await data("country", { country: query });
    assert.equal(country.cca2, "DE", query);
  }
  const de = await data("country", { country: "DE" });
  assert.deepEqual(de.currencies, [{ code: "EUR", name: "Euro", symbol: "€" }]);
  assert.deepEqual(de.callingCodes, ["+49"]);
  assert.ok(de.borders.includes("FRA"));
  assert.match(de.dataset, /^world-countries@\d+\.\d+\.\d+$/);
});

test("country: an unknown country is a 404", () => expectNotFound("country", { country: "Atlantis Xq" }));

test("country: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/country"), "country");
  await expectFree400(await service.request("/v1/country?country=x"), "country");
});

test("countries: filters combine and the list is sorted by name", async () => {
  const list = await data("countries", { region: "Americas", language: "Spanish", independent: true });
  const names = list.countries.map((c: any) => c.name);
  assert.ok(names.includes("Mexico") && names.includes("Argentina") && !names.includes("Brazil"), names.join());
  assert.deepEqual(
    names,
    [...names].sort((a: string, b: string) => a.localeCompare(b)),
  );
  assert.equal(list.count, names.length);
  const euro = await data("countries", { currency: "eur", subregion: "western europe" });
  assert.ok(euro.countries.every((c: any) => c.subregion === "Western Europe"));
  assert.ok(euro.countries.some((c: any) => c.cca2 === "FR"));
});

test("countries: no match is an empty list", async () => {
  const none = await data("countries", { region: "Antarctic", currency: "JPY" });
  assert.deepEqual([none.count, none.countries], [0, []]);
});

test("countries: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/countries?region=Atlantis"), "region");
  await expectFree400(await service.request("/v1/countries?currency=EURO"), "currency");
});

test("dial-code: a country's calling code, by code or by name", async () => {
  const fr = await data("dial-code", { country: "fr" });
  assert.deepEqual(
    fr.regions.map((r: any) => [r.country, r.callingCode, r.nationalPrefix]),
    [["FR", "+33", "0"]],
  );
  assert.match(fr.regions[0].exampleNumber, /^\+33 /);
  assert.equal((await data("dial-code", { country: "Japan" })).regions[0].callingCode, "+81");
  assert.match(fr.dataset, /^google-libphonenumber@/);
});

test("dial-code: a shared code lists every region, the main one marked", async () => {
  const nanp = await data("dial-code", { code: "1" });
  assert.ok(nanp.count > 20);
  assert.deepEqual(
    nanp.regions.filter((r: any) => r.mainRegionForCode).map((r: any) => r.country),
    ["US"],
  );
  assert.ok(nanp.regions.some((r: any) => r.country === "CA"));
});

test("dial-code: an unused code or unknown country is a 404", async () => {
  await expectNotFound("dial-code", { code: "+999" });
  await expectNotFound("dial-code", { country: "XX" });
});

test("dial-code: both or neither of country and code is a 400; bad input is a free 400", async () => {
  assert.equal((await service.call(dialCode, {})).status, 400);
  assert.equal((await service.call(dialCode, { country: "FR", code: "33" })).status, 400);
  await expectFree400(await service.request("/v1/dial-code?code=%2B12345"), "code");
});

test("currencies: one currency with its symbol, minor units and users", async () => {
  const out = await data("currencies", { code: "jpy" });
  assert.deepEqual(out.currencies, [
    { code: "JPY", number: "392", name: "Yen", minorUnits: 0, symbol: "¥", countries: ["Japan"] },
  ]);
  assert.match(out.dataset.listDate, /^\d{4}-\d\d-\d\d$/);
});

test("currencies: by country, by name, and the whole list", async () => {
  assert.deepEqual(
    (await data("currencies", { country: "Switzerland" })).currencies.map((c: any) => c.code),
    ["CHF"],
  );
  const dinars = await data("currencies", { q: "dinar" });
  assert.ok(dinars.currencies.some((c: any) => c.code === "KWD" && c.minorUnits === 3));
  assert.ok((await data("currencies", {})).count > 150);
});

test("currencies: an unknown code or country is a 404", async () => {
  await expectNotFound("currencies", { code: "XYZ" });
  await expectNotFound("currencies", { country: "Atlantis Xq" });
});

test("currencies: bad input is a free 400 naming the field", async () => {
  await expectFree400(await service.request("/v1/currencies?code=EURO"), "code");
  await expectFree400(await service.request("/v1/currencies?q=a"), "q");
});
