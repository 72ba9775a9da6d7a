import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import convertEndpoint from "../../../plugins/converters/convert.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  { name: "Celsius to Fahrenheit", input: { value: 100, from: "C", to: "F" }, result: 212, to: "F" },
  { name: "below zero", input: { value: -40, from: "F", to: "C" }, result: -40, to: "C" },
  { name: "kilometres to miles", input: { value: 10, from: "km", to: "mi" }, result: 6.21371212121, to: "mi" },
  { name: "float noise is rounded away", input: { value: 0.3, from: "m", to: "cm" }, result: 30, to: "cm" },
  {
    name: "pounds to kilograms (convert-units uses 0.453592)",
    input: { value: 1, from: "lb", to: "kg" },
    result: 0.453592,
    to: "kg",
  },
  { name: "speed", input: { value: 100, from: "km/h", to: "m/s" }, result: 27.7777777778, to: "m/s" },
  { name: "data sizes are binary: 1 GB is 1024 MB", input: { value: 1, from: "GB", to: "MB" }, result: 1024, to: "MB" },
  { name: "megabits are not megabytes", input: { value: 8, from: "Mb", to: "MB" }, result: 1, to: "MB" },
  { name: "a unit by its English name", input: { value: 2, from: "kilometres", to: "Meter" }, result: 2000, to: "m" },
  {
    name: "an abbreviation in another case when unambiguous",
    input: { value: 1, from: "KM", to: "M" },
    result: 1000,
    to: "m",
  },
  { name: "the most readable unit without to", input: { value: 1500, from: "m" }, result: 1.5, to: "km" },
];
for (const c of cases) {
  test(`convert: ${c.name}`, async () => {
    const out = await service.call(convertEndpoint, c.input);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.result, c.result);
    assert.equal(data.to.abbr, c.to);
  });
}

test("convert: names the units and lists the compatible ones", async () => {
  const data = dataOf(await service.call(convertEndpoint, { value: 1, from: "C", to: "K" }));
  assert.deepEqual(data.from, {
    abbr: "C",
    name: "degree Celsius",
    plural: "degrees Celsius",
    measure: "temperature",
    system: "metric",
  });
  assert.deepEqual(data.compatible, ["C", "K", "F", "R"]);
  assert.equal(data.result, 274.15);
});

const refused = [
  { name: "an unknown unit", input: { value: 1, from: "parsec", to: "m" }, field: "from" },
  { name: "an ambiguous case-insensitive unit", input: { value: 1, from: "m", to: "mb" }, field: "to" },
  { name: "different measures", input: { value: 1, from: "kg", to: "m" }, field: "to" },
];
for (const c of refused) {
  test(`convert: ${c.name} is a 400 on ${c.field}`, async () => {
    const out = await service.call(convertEndpoint, c.input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === c.field),
      JSON.stringify(out.body),
    );
  });
}

test("convert: an unknown unit answer lists the valid units", async () => {
  const out = await service.call(convertEndpoint, { value: 1, from: "furlong", to: "m" });
  assert.ok(errorOf<{ units: string[] }>(out).details?.units.includes("km"));
});

const bad = [
  { name: "value that is no number", query: "value=ten&from=m&to=km", field: "value" },
  { name: "missing value", query: "from=m&to=km", field: "value" },
  { name: "missing from", query: "value=1&to=km", field: "from" },
  { name: "a value beyond 1e300", query: "value=1e301&from=m&to=km", field: "value" },
];
for (const c of bad) {
  test(`convert: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/convert?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("convert: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/convert?value=1&from=km&to=mi");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
