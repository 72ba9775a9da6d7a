import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export const unitSystems = ["metric", "imperial"] as const;
export type UnitSystem = (typeof unitSystems)[number];

export const unitsInput = v.optional(
  v.pipe(v.picklist(unitSystems), v.description("metric: °C, km/h, mm; imperial: °F, mph, inch")),
  "metric",
);

/** Open-Meteo's unit parameters for a unit system. */
export const unitQuery = (units: UnitSystem) =>
  units === "imperial" ? { temperature_unit: "fahrenheit", wind_speed_unit: "mph", precipitation_unit: "inch" } : {};

/** Unit strings exactly as Open-Meteo states them for each variable (its `*_units` objects). */
export const Units = v.pipe(
  v.record(v.string(), v.string()),
  v.description("Unit of each field, as the model states it"),
);

/** WMO weather interpretation codes (WW), as Open-Meteo documents them. */
const weatherCodes: Record<number, string> = {
  0: "clear sky",
  1: "mainly clear",
  2: "partly cloudy",
  3: "overcast",
  45: "fog",
  48: "depositing rime fog",
  51: "light drizzle",
  53: "moderate drizzle",
  55: "dense drizzle",
  56: "light freezing drizzle",
  57: "dense freezing drizzle",
  61: "slight rain",
  63: "moderate rain",
  65: "heavy rain",
  66: "light freezing rain",
  67: "heavy freezing rain",
  71: "slight snow fall",
  73: "moderate snow fall",
  75: "heavy snow fall",
  77: "snow grains",
  80: "slight rain showers",
  81: "moderate rain showers",
  82: "violent rain showers",
  85: "slight snow showers",
  86: "heavy snow showers",
  95: "thunderstorm",
  96: "thunderstorm with slight hail",
  99: "thunderstorm with heavy hail",
};

export const describeWeather = (code: number | null | undefined) =>
  code === null || code === undefined ? null : (weatherCodes[code] ?? `WMO code ${code}`);

export const num = (value: unknown) => (typeof value === "number" ? value : null);
export const str = (value: unknown) => (typeof value === "string" ? value : null);

/** Renames Open-Meteo's unit keys to ours, keeping only the fields we answer with. */
export const renameUnits = (units: Record<string, string>, names: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(names).flatMap(([ours, theirs]) => (units[theirs] === undefined ? [] : [[ours, units[theirs]]])),
  );

const nullableNumber = v.nullable(v.number());

/** An output object with one nullable number per variable, plus its time. */
export const seriesRow = <K extends string>(names: Record<K, string>) =>
  v.object({
    time: v.pipe(v.string(), v.description("Local time in `zone`, ISO 8601 without offset")),
    ...(Object.fromEntries(Object.keys(names).map((k) => [k, nullableNumber])) as Record<K, typeof nullableNumber>),
  });

/** Unit strings by variable (`current_units`, `hourly_units`, `daily_units`). */
export const UnitsOf = v.record(v.string(), v.string());
const value = v.nullable(v.union([v.number(), v.string()]));
/** Open-Meteo's `current`: its time and one value per variable asked for (null where the model has none). */
export const CurrentOf = v.objectWithRest({ time: v.string() }, value);
/** Open-Meteo's column-wise `hourly` or `daily`: a list of times and one list per variable asked for. */
export const SeriesOf = v.objectWithRest({ time: v.array(v.string()) }, v.array(value));

/** What the code reads of an Open-Meteo answer with current conditions and hourly values. */
const CurrentAndHourly = v.object({
  timezone: v.string(),
  current_units: UnitsOf,
  current: CurrentOf,
  hourly_units: UnitsOf,
  hourly: SeriesOf,
});

/** Calls an Open-Meteo API for current conditions and the next hours, and renames its variables to ours. */
export async function currentAndHourly<C extends string, H extends string>(
  api: Upstream,
  path: string,
  at: { lat: number; lon: number },
  vars: { current: Record<C, string>; hourly: Record<H, string>; hours: number; query?: Record<string, string> },
) {
  const r = await api.json(path, CurrentAndHourly, {
    query: {
      latitude: at.lat,
      longitude: at.lon,
      current: Object.values(vars.current).join(","),
      hourly: Object.values(vars.hourly).join(","),
      timezone: "auto",
      forecast_hours: vars.hours,
      ...vars.query,
    },
  });
  const pick = <K extends string>(names: Record<K, string>, value: (theirs: string) => unknown) =>
    Object.fromEntries(Object.entries<string>(names).map(([ours, theirs]) => [ours, num(value(theirs))])) as Record<
      K,
      number | null
    >;
  return {
    zone: r.timezone,
    units: { ...renameUnits(r.current_units, vars.current), ...renameUnits(r.hourly_units, vars.hourly) },
    current: { time: String(r.current.time), ...pick(vars.current, (k) => r.current[k]) },
    hourly: r.hourly.time.map((time, i) => ({ time, ...pick(vars.hourly, (k) => r.hourly[k]?.[i]) })),
  };
}
