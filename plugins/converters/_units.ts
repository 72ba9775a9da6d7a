import { createRequire } from "node:module";
import { lazy } from "../../core/shared.ts";

export interface UnitInfo {
  abbr: string;
  measure: string;
  system: string;
  singular: string;
  plural: string;
}

interface Converter {
  from(unit: string): { to(unit: string): number; toBest(): { val: number; unit: string } };
  describe(unit: string): UnitInfo;
  list(measure?: string): UnitInfo[];
}

/** convert-units 2.x (24 modules), required on the first conversion rather than at boot; it ships no type declarations, this is the part of its API used here. */
const converter = lazy(() => createRequire(import.meta.url)("convert-units") as (value?: number) => Converter);
const convert = (value?: number) => converter()(value);

/** Every unit convert-units knows. */
export const allUnits = lazy((): UnitInfo[] => convert().list());

/** Finds a unit by its abbreviation, then case-insensitively if that is unambiguous, then by its English name. */
export function findUnit(name: string): UnitInfo | undefined {
  const wanted = name.trim();
  const exact = allUnits().find((u) => u.abbr === wanted);
  if (exact) return exact;
  const lower = wanted.toLowerCase();
  const byAbbr = allUnits().filter((u) => u.abbr.toLowerCase() === lower);
  if (byAbbr.length === 1) return byAbbr[0];
  const spelled = lower.replace(/metre/g, "meter").replace(/litre/g, "liter");
  const byName = allUnits().filter((u) =>
    [u.singular, u.plural].some(
      (n) => n.toLowerCase().replace(/metre/g, "meter").replace(/litre/g, "liter") === spelled,
    ),
  );
  return byName.length === 1 ? byName[0] : undefined;
}

export const unitsOf = (measure: string) => allUnits().filter((u) => u.measure === measure);

export const convertValue = (value: number, from: UnitInfo, to: UnitInfo) => convert(value).from(from.abbr).to(to.abbr);

export function bestUnit(value: number, from: UnitInfo): { value: number; unit: UnitInfo } {
  const best = convert(value).from(from.abbr).toBest();
  return { value: best.val, unit: allUnits().find((u) => u.abbr === best.unit)! };
}
