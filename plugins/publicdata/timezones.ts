import { DateTime } from "luxon";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { countryCode } from "./_pr-inputs.ts";
import { tzdataVersion, zoneTable, zoneTime } from "./_pr-zones.ts";

const Zone = v.object({
  zone: v.pipe(v.string(), v.description("IANA time zone name")),
  countries: v.pipe(v.array(v.string()), v.description("ISO 3166 codes of the countries that use it")),
  comment: v.pipe(
    v.string(),
    v.description("zone.tab description of the area, empty when the zone covers the whole country"),
  ),
  utcOffset: v.pipe(v.string(), v.description("UTC offset at `at`, +HH:MM")),
  abbreviation: v.string(),
  dst: v.boolean(),
});

export default defineEndpoint({
  name: "timezones",
  method: "GET",
  price: "$0.001",
  summary: "List IANA time zones, by country or name, with their offset and DST at a given time",
  description:
    "Zones come from the IANA zone.tab bundled with the service (one row per zone and country), sorted by name. Offsets are computed at `at` (defaults to now) with the tz database in Node's ICU. The versions of both are stated in `dataset`.",
  input: v.object({
    country: v.optional(countryCode("Only zones used in this country (ISO 3166-1 alpha-2)")),
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(64),
        v.description("Only zones whose name or description contains this text, case-insensitive"),
      ),
    ),
    at: v.optional(
      v.pipe(
        v.string(),
        v.regex(
          /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)$/,
          "must be an ISO 8601 instant with Z or an offset",
        ),
        v.description("Instant for the offsets, e.g. 2025-01-15T12:00:00Z; defaults to now"),
      ),
    ),
  }),
  output: v.object({
    at: v.pipe(v.string(), v.description("The instant the offsets are for, UTC ISO 8601")),
    count: v.number(),
    zones: v.array(Zone),
    dataset: v.object({ tzdata: v.string(), zoneTable: v.string() }),
  }),
  example: {
    input: { country: "CH", at: "2025-01-15T12:00:00Z" },
    output: {
      at: "2025-01-15T12:00:00Z",
      count: 1,
      zones: [
        {
          zone: "Europe/Zurich",
          countries: ["CH"],
          comment: "",
          utcOffset: "+01:00",
          abbreviation: "GMT+1",
          dst: false,
        },
      ],
      dataset: { tzdata: "2025c", zoneTable: "2025b" },
    },
  },
  handler({ input, now }) {
    const instant = input.at === undefined ? DateTime.fromJSDate(now()) : DateTime.fromISO(input.at);
    if (!instant.isValid) throw fieldError("at", `not a valid time: ${instant.invalidExplanation}`);
    const country = input.country?.toUpperCase();
    const q = input.q?.toLowerCase();
    const { rows, version } = zoneTable();
    const zones = [...rows.values()]
      .filter((row) => !country || row.countries.includes(country))
      .filter((row) => !q || row.zone.toLowerCase().includes(q) || row.comment.toLowerCase().includes(q))
      .sort((a, b) => a.zone.localeCompare(b.zone))
      .map((row) => {
        const { utcOffset, abbreviation, dst } = zoneTime(row.zone, instant);
        return { zone: row.zone, countries: row.countries, comment: row.comment, utcOffset, abbreviation, dst };
      });
    return {
      at: instant.toUTC().toISO({ suppressMilliseconds: true }) ?? "",
      count: zones.length,
      zones,
      dataset: { tzdata: tzdataVersion(), zoneTable: version },
    };
  },
});
