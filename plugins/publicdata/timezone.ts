import tzLookup from "@photostructure/tz-lookup";
import { DateTime } from "luxon";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { datasetVersion } from "./_pr-datasets.ts";
import { ianaZone, latitude, longitude } from "./_pr-inputs.ts";
import { isZone, tzdataVersion, zoneTable, ZoneTime, zoneTime } from "./_pr-zones.ts";

export default defineEndpoint({
  name: "timezone",
  method: "GET",
  price: "$0.001",
  summary:
    "Local time, UTC offset and DST of a time zone (by IANA name or coordinates), with conversion to another zone",
  description:
    "Give `zone` (IANA name) or `lat` and `lon` (the zone is found from the point, ocean points get an Etc/GMT zone). `time` is an ISO 8601 instant; without an offset it is read as wall time in the zone (a time skipped by a DST change moves forward). Defaults to now. `to` converts the same instant to another zone. Offsets come from the tz database in Node's ICU; the data versions are stated in `dataset`.",
  input: v.object({
    zone: v.optional(ianaZone("IANA time zone, e.g. Europe/Paris; or give lat and lon")),
    lat: v.optional(latitude()),
    lon: v.optional(longitude()),
    time: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(40),
        v.regex(
          /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)?$/,
          "must be an ISO 8601 date and time, e.g. 2025-07-01T12:00:00Z",
        ),
        v.description("ISO 8601 date and time, e.g. 2025-07-01T12:00:00Z; defaults to now"),
      ),
    ),
    to: v.optional(ianaZone("IANA time zone to convert the same instant to")),
  }),
  output: v.object({
    ...ZoneTime.entries,
    utc: v.pipe(v.string(), v.description("The instant in UTC, ISO 8601")),
    resolvedFrom: v.picklist(["name", "coordinates"]),
    countries: v.pipe(
      v.array(v.string()),
      v.description("ISO 3166 codes of the countries zone.tab lists for the zone"),
    ),
    comment: v.pipe(v.string(), v.description("zone.tab description of the area the zone covers")),
    converted: v.nullable(ZoneTime),
    dataset: v.object({ tzdata: v.string(), zoneTable: v.string(), coordinates: v.nullable(v.string()) }),
  }),
  example: {
    input: { zone: "America/New_York", time: "2025-07-01T12:00:00Z", to: "Asia/Tokyo" },
    output: {
      zone: "America/New_York",
      local: "2025-07-01T08:00:00-04:00",
      utcOffset: "-04:00",
      offsetMinutes: -240,
      abbreviation: "EDT",
      dst: true,
      utc: "2025-07-01T12:00:00Z",
      resolvedFrom: "name",
      countries: ["US"],
      comment: "Eastern (most areas)",
      converted: {
        zone: "Asia/Tokyo",
        local: "2025-07-01T21:00:00+09:00",
        utcOffset: "+09:00",
        offsetMinutes: 540,
        abbreviation: "GMT+9",
        dst: false,
      },
      dataset: { tzdata: "2025c", zoneTable: "2025b", coordinates: null },
    },
  },
  handler({ input, now }) {
    const byPoint = input.lat !== undefined || input.lon !== undefined;
    if (byPoint && (input.lat === undefined || input.lon === undefined))
      throw fieldError(input.lat === undefined ? "lat" : "lon", "give both lat and lon");
    if (byPoint === (input.zone !== undefined)) throw fieldError("zone", "give either zone or lat and lon");
    const zone = input.zone ?? tzLookup(input.lat!, input.lon!);
    if (!isZone(zone)) throw fieldError("zone", `unknown time zone ${zone}`);
    if (input.to !== undefined && !isZone(input.to)) throw fieldError("to", `unknown time zone ${input.to}`);
    const instant =
      input.time === undefined ? DateTime.fromJSDate(now()) : DateTime.fromISO(input.time, { zone, setZone: false });
    if (!instant.isValid) throw fieldError("time", `not a valid time: ${instant.invalidExplanation}`);
    const { rows, version } = zoneTable();
    const row = rows.get(zone);
    return {
      ...zoneTime(zone, instant),
      utc: instant.toUTC().toISO({ suppressMilliseconds: true }) ?? "",
      resolvedFrom: byPoint ? ("coordinates" as const) : ("name" as const),
      countries: row?.countries ?? [],
      comment: row?.comment ?? "",
      converted: input.to === undefined ? null : zoneTime(input.to, instant),
      dataset: {
        tzdata: tzdataVersion(),
        zoneTable: version,
        coordinates: byPoint ? datasetVersion("@photostructure/tz-lookup") : null,
      },
    };
  },
});
