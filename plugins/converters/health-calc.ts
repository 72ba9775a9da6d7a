import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, fieldError } from "../../core/runtime/errors.ts";
import * as h from "./_health.ts";

const types = ["bmi", "bmr", "tdee", "bodyfat", "idealweight"] as const;
type CalcType = (typeof types)[number];
const needs: Record<CalcType, string[]> = {
  bmi: ["weight", "height"],
  bmr: ["weight", "height", "age", "sex"],
  tdee: ["weight", "height", "age", "sex", "activity"],
  bodyfat: ["height", "waist", "neck", "sex"],
  idealweight: ["height", "sex"],
};
const DISCLAIMER =
  "Estimates from population formulas, for general information only. This is not medical advice; consult a qualified health professional before acting on it.";

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;
const measure = (what: string, max: number) =>
  v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(max), v.description(what)));

const input = v.object({
  type: v.pipe(v.picklist(types), v.description("bmi, bmr, tdee, bodyfat or idealweight")),
  units: v.optional(
    v.pipe(v.picklist(["metric", "imperial"]), v.description("metric: kg and cm (default); imperial: lb and inches")),
    "metric",
  ),
  weight: measure("Body weight in kg or lb (bmi, bmr, tdee; optional for bodyfat)", 1500),
  height: measure("Height in cm or inches", 300),
  age: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(120), v.description("Age in years (bmr, tdee)")),
  ),
  sex: v.optional(
    v.pipe(
      v.picklist(["male", "female"]),
      v.description("Sex the formulas were fitted for (bmr, tdee, bodyfat, idealweight)"),
    ),
  ),
  activity: v.optional(
    v.pipe(
      v.picklist(Object.keys(h.activityFactors) as h.Activity[]),
      v.description("tdee: sedentary, light, moderate, active or very_active"),
    ),
  ),
  waist: measure("bodyfat: waist circumference at the navel (men) or narrowest point (women), cm or in", 300),
  neck: measure("bodyfat: neck circumference below the larynx, cm or in", 150),
  hip: measure("bodyfat (women): hip circumference at the widest point, cm or in", 300),
});
type Input = v.InferOutput<typeof input>;

function requireFields(i: Input) {
  const required = [...needs[i.type], ...(i.type === "bodyfat" && i.sex === "female" ? ["hip"] : [])];
  const missing = required.filter((f) => i[f as keyof Input] === undefined);
  if (missing.length) {
    throw badRequest(`${i.type} needs ${missing.join(", ")}`, {
      issues: missing.map((field) => ({ field, message: `Required for ${i.type}` })),
    });
  }
}

function calculate(i: Input, kg: number, cm: number, toUser: (kg: number) => number) {
  const sex = i.sex as h.Sex;
  const metric = (n: number | undefined) =>
    n === undefined ? undefined : i.units === "imperial" ? n * h.CM_PER_IN : n;
  switch (i.type) {
    case "bmi": {
      const bmi = h.bmiOf(kg, cm);
      const healthy = h.healthyWeightKg(cm);
      const notes =
        i.age !== undefined && i.age < 20
          ? ["Adult BMI classes do not apply under 20; use BMI-for-age percentiles."]
          : [];
      return {
        type: "bmi" as const,
        bmi: round(bmi),
        category: h.bmiCategory(bmi),
        bmiPrime: round(bmi / 25, 2),
        healthyWeight: { min: round(toUser(healthy.min)), max: round(toUser(healthy.max)) },
        notes,
      };
    }
    case "bmr":
    case "tdee": {
      const bmr = h.mifflinStJeor(kg, cm, i.age!, sex);
      const formulas = {
        mifflinStJeor: Math.round(bmr),
        harrisBenedict: Math.round(h.harrisBenedict(kg, cm, i.age!, sex)),
      };
      if (i.type === "bmr") return { type: "bmr" as const, bmr: Math.round(bmr), formulas, notes: [] };
      const factor = h.activityFactors[i.activity!];
      const tdee = Math.round(bmr * factor);
      return {
        type: "tdee" as const,
        bmr: Math.round(bmr),
        activity: i.activity!,
        activityFactor: factor,
        tdee,
        weightLoss: tdee - 500,
        weightGain: tdee + 500,
        notes: [],
      };
    }
    case "bodyfat": {
      const [waist, neck, hip] = [metric(i.waist)!, metric(i.neck)!, metric(i.hip)];
      if (waist <= neck) throw fieldError("waist", "waist must be larger than neck");
      const percent = h.navyBodyFat(sex, cm, waist, neck, hip);
      if (!Number.isFinite(percent) || percent <= 0 || percent >= 75) {
        throw fieldError("waist", "These measurements give no plausible body fat; check the units");
      }
      const fat = i.weight === undefined ? null : round(toUser((kg * percent) / 100));
      const lean = fat === null ? null : round(i.weight! - fat);
      return {
        type: "bodyfat" as const,
        bodyFatPercent: round(percent),
        category: h.bodyFatCategory(sex, percent),
        fatMass: fat,
        leanMass: lean,
        method: "US Navy",
        notes: [],
      };
    }
    case "idealweight": {
      const ideal = h.idealWeightsKg(cm, sex);
      const healthy = h.healthyWeightKg(cm);
      const notes =
        cm < 152.4
          ? ["The formulas are fitted for heights from 5 ft (152.4 cm); below that they extrapolate poorly."]
          : [];
      return {
        type: "idealweight" as const,
        devine: round(toUser(ideal.devine)),
        robinson: round(toUser(ideal.robinson)),
        miller: round(toUser(ideal.miller)),
        hamwi: round(toUser(ideal.hamwi)),
        healthyWeight: { min: round(toUser(healthy.min)), max: round(toUser(healthy.max)) },
        notes,
      };
    }
  }
}

const common = {
  units: v.picklist(["metric", "imperial"]),
  weightUnit: v.picklist(["kg", "lb"]),
  notes: v.array(v.string()),
  disclaimer: v.string(),
};
const range = v.object({ min: v.number(), max: v.number() });

export default defineEndpoint({
  name: "health-calc",
  method: "GET",
  price: "$0.001",
  summary: "BMI, BMR, TDEE, body fat and ideal weight from body measurements, metric or imperial",
  description:
    "bmi: WHO adult classes and the healthy weight range. bmr: Mifflin-St Jeor (main) and revised Harris-Benedict, kcal/day. tdee: BMR times an activity factor. bodyfat: US Navy tape method with ACE categories. idealweight: Devine, Robinson, Miller and Hamwi. Not medical advice.",
  input,
  output: v.variant("type", [
    v.object({
      type: v.literal("bmi"),
      ...common,
      bmi: v.number(),
      category: v.string(),
      bmiPrime: v.number(),
      healthyWeight: range,
    }),
    v.object({
      type: v.literal("bmr"),
      ...common,
      bmr: v.pipe(v.number(), v.description("kcal per day")),
      formulas: v.object({ mifflinStJeor: v.number(), harrisBenedict: v.number() }),
    }),
    v.object({
      type: v.literal("tdee"),
      ...common,
      bmr: v.number(),
      activity: v.string(),
      activityFactor: v.number(),
      tdee: v.pipe(v.number(), v.description("kcal per day")),
      weightLoss: v.pipe(v.number(), v.description("kcal per day for about 0.5 kg (1 lb) a week of loss")),
      weightGain: v.number(),
    }),
    v.object({
      type: v.literal("bodyfat"),
      ...common,
      bodyFatPercent: v.number(),
      category: v.string(),
      fatMass: v.nullable(v.number()),
      leanMass: v.nullable(v.number()),
      method: v.string(),
    }),
    v.object({
      type: v.literal("idealweight"),
      ...common,
      devine: v.number(),
      robinson: v.number(),
      miller: v.number(),
      hamwi: v.number(),
      healthyWeight: range,
    }),
  ]),
  example: {
    input: { type: "bmi", units: "metric", weight: 70, height: 175 },
    output: {
      type: "bmi",
      units: "metric",
      weightUnit: "kg",
      bmi: 22.9,
      category: "normal",
      bmiPrime: 0.91,
      healthyWeight: { min: 56.7, max: 76.3 },
      notes: [],
      disclaimer: DISCLAIMER,
    },
  },
  handler({ input: i }) {
    requireFields(i);
    const imperial = i.units === "imperial";
    const kg = imperial ? (i.weight ?? 0) * h.KG_PER_LB : (i.weight ?? 0);
    const cm = imperial ? i.height! * h.CM_PER_IN : i.height!;
    const toUser = (value: number) => (imperial ? value / h.KG_PER_LB : value);
    const result = calculate(i, kg, cm, toUser);
    return {
      ...result,
      units: i.units,
      weightUnit: imperial ? ("lb" as const) : ("kg" as const),
      disclaimer: DISCLAIMER,
    };
  },
});
