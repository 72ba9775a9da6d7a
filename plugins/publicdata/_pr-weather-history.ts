import { DateTime } from "luxon";
import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { Location } from "./_pr-geocode.ts";
import { isoDate } from "./_pr-inputs.ts";
import {
  describeWeather,
  num,
  renameUnits,
  SeriesOf,
  unitQuery,
  Units,
  UnitsOf,
  unitsInput,
  type UnitSystem,
} from "./_pr-open-meteo.ts";

const daily = {
  temperatureMax: "temperature_2m_max",
  temperatureMin: "temperature_2m_min",
  temperatureMean: "temperature_2m_mean",
  precipitationSum: "precipitation_sum",
  windSpeedMax: "wind_speed_10m_max",
  weatherCode: "weather_code",
} as const;
const maxDays = 366;
const n = v.nullable(v.number());

export const rangeEntries = {
  start: isoDate("First day, YYYY-MM-DD (from 1940-01-01; recent days settle after about 5 days)"),
  end: v.optional(isoDate(`Last day, YYYY-MM-DD; defaults to start; at most ${maxDays} days after start`)),
  units: unitsInput,
};

export const HistoryOutput = v.object({
  location: Location,
  zone: v.pipe(v.string(), v.description("IANA time zone the days are in")),
  elevation: v.pipe(v.number(), v.description("Metres, of the reanalysis cell")),
  units: Units,
  days: v.array(
    v.object({
      date: v.string(),
      temperatureMax: n,
      temperatureMin: n,
      temperatureMean: n,
      precipitationSum: n,
      windSpeedMax: n,
      weatherCode: n,
      weather: v.nullable(v.string()),
    }),
  ),
});

/** What the code reads of Open-Meteo's archive answer. */
const Archive = v.object({ timezone: v.string(), elevation: v.number(), daily_units: UnitsOf, daily: SeriesOf });

/** Checks the range before any upstream is called: real days, in order, not too long, not in the future. */
export function checkRange(input: { start: string; end?: string }, today: Date) {
  const start = DateTime.fromISO(input.start, { zone: "UTC" });
  const end = DateTime.fromISO(input.end ?? input.start, { zone: "UTC" });
  if (!start.isValid) throw fieldError("start", `not a valid date: ${input.start}`);
  if (!end.isValid) throw fieldError("end", `not a valid date: ${input.end}`);
  if (start < DateTime.fromISO("1940-01-01", { zone: "UTC" }))
    throw fieldError("start", "the archive starts on 1940-01-01");
  if (end < start) throw fieldError("end", "end is before start");
  if (end.diff(start, "days").days >= maxDays) throw fieldError("end", `at most ${maxDays} days per call`);
  if (end > DateTime.fromJSDate(today, { zone: "UTC" }).startOf("day"))
    throw fieldError("end", "the archive has no days after today; use weather for forecasts");
  return { start: start.toISODate()!, end: end.toISODate()! };
}

/** Daily past weather from Open-Meteo's historical (ERA5 reanalysis) API. */
export async function fetchHistory(
  api: Upstream,
  location: Location,
  range: { start: string; end: string },
  units: UnitSystem,
) {
  const a = await api.json("/v1/archive", Archive, {
    query: {
      latitude: location.lat,
      longitude: location.lon,
      start_date: range.start,
      end_date: range.end,
      daily: Object.values(daily).join(","),
      timezone: "auto",
      ...unitQuery(units),
    },
  });
  return {
    location,
    zone: a.timezone,
    elevation: a.elevation,
    units: renameUnits(a.daily_units, daily),
    days: a.daily.time.map((date, i) => {
      const at = (key: (typeof daily)[keyof typeof daily]) => num(a.daily[key]?.[i]);
      return {
        date,
        temperatureMax: at("temperature_2m_max"),
        temperatureMin: at("temperature_2m_min"),
        temperatureMean: at("temperature_2m_mean"),
        precipitationSum: at("precipitation_sum"),
        windSpeedMax: at("wind_speed_10m_max"),
        weatherCode: at("weather_code"),
        weather: describeWeather(at("weather_code")),
      };
    }),
  };
}

export const historyDescription =
  "From Open-Meteo's historical weather API (ERA5 reanalysis, CC BY 4.0): daily values for each day in the range, local to `zone`, with the unit of every field in `units`. Open-Meteo's keyless tier is for non-commercial use: the operator points UPSTREAM_OPEN_METEO_ARCHIVE_URL and UPSTREAM_OPEN_METEO_ARCHIVE_KEY at a paid plan (customer-archive-api.open-meteo.com) or a self-hosted server.";
