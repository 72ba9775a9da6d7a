import tzLookup from "@photostructure/tz-lookup";
import { DateTime } from "luxon";
import { datasetVersion } from "./_pr-datasets.ts";
import { isZone } from "./_pr-zones.ts";
import { fieldError } from "../../core/runtime/errors.ts";

/** A calendar day at a place: its zone (given, or found from the point) and where the day starts. */
export function localDay(input: { lat: number; lon: number; date?: string; zone?: string }, now: Date) {
  const zone = input.zone ?? tzLookup(input.lat, input.lon);
  if (!isZone(zone)) throw fieldError("zone", `unknown time zone ${zone}`);
  const start =
    input.date === undefined
      ? DateTime.fromJSDate(now, { zone }).startOf("day")
      : DateTime.fromISO(input.date, { zone }).startOf("day");
  if (!start.isValid) throw fieldError("date", `not a valid date: ${input.date}`);
  return {
    zone,
    start,
    date: start.toISODate() ?? "",
    zoneSource: input.zone === undefined ? datasetVersion("@photostructure/tz-lookup") : null,
  };
}

/** A Date as local time in `zone`, ISO 8601 with offset; null when the event does not happen. */
export const localIso = (date: Date | null | undefined, zone: string) =>
  date && !Number.isNaN(date.getTime())
    ? DateTime.fromMillis(Math.round(date.getTime() / 1000) * 1000, { zone }).toISO({ suppressMilliseconds: true })
    : null;

export const round = (value: number, digits: number) => Number(value.toFixed(digits));
