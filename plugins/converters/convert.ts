import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { allUnits, bestUnit, convertValue, findUnit, unitsOf, type UnitInfo } from "./_units.ts";

const fieldError = (field: string, message: string, extra: object = {}) =>
  badRequest(message, { issues: [{ field, message }], ...extra });

/** Twelve significant digits hide binary floating-point noise such as 30.000000000000004. */
const tidy = (n: number) => Number(n.toPrecision(12));

function lookup(field: "from" | "to", name: string): UnitInfo {
  const unit = findUnit(name);
  if (!unit) throw fieldError(field, `Unknown unit ${name}`, { units: allUnits().map((u) => u.abbr) });
  return unit;
}

const unitShape = v.object({
  abbr: v.string(),
  name: v.string(),
  plural: v.string(),
  measure: v.string(),
  system: v.string(),
});
const describe = (u: UnitInfo) => ({
  abbr: u.abbr,
  name: u.singular,
  plural: u.plural,
  measure: u.measure,
  system: u.system,
});

export default defineEndpoint({
  name: "convert",
  method: "GET",
  price: "$0.001",
  summary: "Convert physical units: length, mass, volume, temperature, speed, data, time, pressure, energy and more",
  description:
    "Units are given by abbreviation (km, mi, lb, C, F, l, gal, MB, km/h) or English name (kilometer, miles). Without to, the most readable unit of the same measure is chosen. Factors are those of convert-units (data units are binary: 1 GB = 1024 MB); results are rounded to 12 significant digits.",
  input: v.object({
    value: v.pipe(v.number(), v.minValue(-1e300), v.maxValue(1e300), v.description("Quantity to convert")),
    from: v.pipe(v.string(), v.minLength(1), v.maxLength(40), v.description("Unit of value, e.g. km, lb, C, km/h")),
    to: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(40), v.description("Target unit; omit for the most readable one")),
    ),
  }),
  output: v.object({
    value: v.number(),
    result: v.number(),
    from: unitShape,
    to: unitShape,
    compatible: v.pipe(v.array(v.string()), v.description("Every unit abbreviation of the same measure")),
  }),
  example: {
    input: { value: 100, from: "C", to: "F" },
    output: {
      value: 100,
      result: 212,
      from: { abbr: "C", name: "degree Celsius", plural: "degrees Celsius", measure: "temperature", system: "metric" },
      to: {
        abbr: "F",
        name: "degree Fahrenheit",
        plural: "degrees Fahrenheit",
        measure: "temperature",
        system: "imperial",
      },
      compatible: ["C", "K", "F", "R"],
    },
  },
  handler({ input }) {
    const from = lookup("from", input.from);
    const target = input.to === undefined ? undefined : lookup("to", input.to);
    if (target && target.measure !== from.measure) {
      throw fieldError("to", `Cannot convert ${from.measure} (${from.abbr}) to ${target.measure} (${target.abbr})`);
    }
    const { value, unit } = target
      ? { value: convertValue(input.value, from, target), unit: target }
      : bestUnit(input.value, from);
    if (!Number.isFinite(value)) throw fieldError("value", "The result is too large to represent");
    return {
      value: input.value,
      result: tidy(value),
      from: describe(from),
      to: describe(unit),
      compatible: unitsOf(from.measure).map((u) => u.abbr),
    };
  },
});
