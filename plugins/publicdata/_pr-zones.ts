import { readFileSync } from "node:fs";
import { type DateTime, IANAZone } from "luxon";
import * as v from "valibot";
import { lazy } from "../../core/shared.ts";

export interface ZoneRow {
  zone: string;
  countries: string[];
  comment: string;
}

/** IANA zone.tab bundled beside this file: which countries use each zone, with its description. */
export const zoneTable = lazy(() => {
  const text = readFileSync(new URL("./_pr-zone.tab", import.meta.url), "utf8");
  const version = /^# version (\S+)/.exec(text)?.[1] ?? "unknown";
  const rows = new Map<string, ZoneRow>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const [country, , zone, comment = ""] = line.split("\t");
    const row = rows.get(zone) ?? { zone, countries: [], comment };
    row.countries.push(country);
    rows.set(zone, row);
  }
  return { version, rows };
});

/** The tz database version Node's ICU uses for offsets and DST rules. */
export const tzdataVersion = () => process.versions.tz ?? "unknown";

export const isZone = (name: string) => IANAZone.isValidZone(name);

export const ZoneTime = v.object({
  zone: v.pipe(v.string(), v.description("IANA time zone name")),
  local: v.pipe(v.string(), v.description("Local wall time with its UTC offset, ISO 8601")),
  utcOffset: v.pipe(v.string(), v.description("UTC offset, +HH:MM")),
  offsetMinutes: v.number(),
  abbreviation: v.pipe(v.string(), v.description("Short name, e.g. CET, or a GMT offset where the zone has none")),
  dst: v.pipe(v.boolean(), v.description("Daylight saving time is in force")),
});

/** Where `zone` stands at one instant. */
export function zoneTime(zone: string, instant: DateTime) {
  const at = instant.setZone(zone);
  return {
    zone,
    local: at.toISO({ suppressMilliseconds: true }) ?? "",
    utcOffset: at.toFormat("ZZ"),
    offsetMinutes: at.offset,
    abbreviation: at.offsetNameShort ?? at.toFormat("ZZ"),
    dst: at.isInDST,
  };
}
