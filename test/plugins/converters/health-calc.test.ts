import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import healthCalc from "../../../plugins/converters/health-calc.ts";

const service = await startTestService({ plugins: ["converters"] });

async function calc(input: InputOf<typeof healthCalc>) {
  const out = await service.call(healthCalc, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}

const cases: { name: string; input: object; expect: object }[] = [
  {
    name: "bmi, metric",
    input: { type: "bmi", weight: 70, height: 175 },
    expect: {
      bmi: 22.9,
      category: "normal",
      bmiPrime: 0.91,
      healthyWeight: { min: 56.7, max: 76.3 },
      weightUnit: "kg",
    },
  },
  {
    name: "bmi, imperial, with the range in pounds",
    input: { type: "bmi", units: "imperial", weight: 220, height: 70 },
    expect: { bmi: 31.6, category: "obese class I", healthyWeight: { min: 128.9, max: 173.5 }, weightUnit: "lb" },
  },
  {
    name: "bmi underweight",
    input: { type: "bmi", weight: 50, height: 180 },
    expect: { bmi: 15.4, category: "underweight" },
  },
  {
    name: "bmr by Mifflin-St Jeor and Harris-Benedict",
    input: { type: "bmr", weight: 70, height: 175, age: 30, sex: "male" },
    expect: { bmr: 1649, formulas: { mifflinStJeor: 1649, harrisBenedict: 1696 } },
  },
  {
    name: "bmr for a woman",
    input: { type: "bmr", weight: 60, height: 165, age: 40, sex: "female" },
    expect: { bmr: 1270 },
  },
  {
    name: "tdee with an activity factor",
    input: { type: "tdee", weight: 70, height: 175, age: 30, sex: "male", activity: "moderate" },
    expect: { bmr: 1649, activityFactor: 1.55, tdee: 2556, weightLoss: 2056, weightGain: 3056 },
  },
  {
    name: "body fat by the US Navy method, with masses",
    input: { type: "bodyfat", sex: "male", height: 178, waist: 85, neck: 38, weight: 80 },
    expect: { bodyFatPercent: 16.4, category: "fitness", fatMass: 13.1, leanMass: 66.9, method: "US Navy" },
  },
  {
    name: "body fat for a woman needs the hip",
    input: { type: "bodyfat", sex: "female", height: 165, waist: 70, neck: 32, hip: 95 },
    expect: { bodyFatPercent: 24.9, category: "fitness", fatMass: null, leanMass: null },
  },
  {
    name: "ideal weight formulas in pounds",
    input: { type: "idealweight", units: "imperial", height: 70, sex: "male" },
    expect: { devine: 160.9, robinson: 156.5, miller: 155, hamwi: 165.3 },
  },
  {
    name: "ideal weight in kg",
    input: { type: "idealweight", height: 152.4, sex: "female" },
    expect: { devine: 45.5, robinson: 49, miller: 53.1, hamwi: 45.5, notes: [] },
  },
];
for (const c of cases) {
  test(`health-calc: ${c.name}`, async () => {
    const data = await calc(c.input as InputOf<typeof healthCalc>);
    for (const [key, value] of Object.entries(c.expect)) assert.deepEqual(data[key as keyof typeof data], value, key);
  });
}

test("health-calc: every answer carries the medical disclaimer", async () => {
  for (const input of cases.map((c) => c.input)) {
    assert.match((await calc(input as InputOf<typeof healthCalc>)).disclaimer, /not medical advice/);
  }
});

test("health-calc: notes warn where a formula does not fit", async () => {
  assert.match((await calc({ type: "bmi", weight: 50, height: 160, age: 14 })).notes[0], /under 20/);
  assert.match((await calc({ type: "idealweight", height: 140, sex: "female" })).notes[0], /5 ft/);
});

const refused = [
  { name: "bmr without age and sex", input: { type: "bmr", weight: 70, height: 175 }, fields: ["age", "sex"] },
  {
    name: "tdee without activity",
    input: { type: "tdee", weight: 70, height: 175, age: 30, sex: "male" },
    fields: ["activity"],
  },
  {
    name: "a woman's body fat without hip",
    input: { type: "bodyfat", sex: "female", height: 165, waist: 70, neck: 32 },
    fields: ["hip"],
  },
  { name: "bmi without weight", input: { type: "bmi", height: 175 }, fields: ["weight"] },
  {
    name: "a waist no larger than the neck",
    input: { type: "bodyfat", sex: "male", height: 178, waist: 38, neck: 40 },
    fields: ["waist"],
  },
];
for (const c of refused) {
  test(`health-calc: ${c.name} is a 400 naming ${c.fields.join(", ")}`, async () => {
    const out = await service.call("health-calc", c.input);
    assert.equal(out.status, 400);
    assert.deepEqual(
      issuesOf(out).map((i: any) => i.field),
      c.fields,
    );
  });
}

const bad = [
  { name: "missing type", query: "weight=70&height=175", field: "type" },
  { name: "unknown type", query: "type=vo2max", field: "type" },
  { name: "unknown units", query: "type=bmi&units=stone", field: "units" },
  { name: "a weight of 0", query: "type=bmi&weight=0&height=175", field: "weight" },
  { name: "a height over 300", query: "type=bmi&weight=70&height=301", field: "height" },
  { name: "a fractional age", query: "type=bmr&age=30.5", field: "age" },
  { name: "unknown activity", query: "type=tdee&activity=extreme", field: "activity" },
];
for (const c of bad) {
  test(`health-calc: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/health-calc?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("health-calc: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/health-calc?type=bmi&weight=70&height=175");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
