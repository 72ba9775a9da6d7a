import * as v from "valibot";
import { DateTime } from "luxon";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const units = ["auto", "s", "ms", "us", "ns"] as const;
type Unit = (typeof units)[number];
const msPerUnit: Record<Exclude<Unit, "auto">, number> = { s: 1000, ms: 1, us: 1e-3, ns: 1e-6 };
const formats = ["now", "unix-s", "unix-ms", "unix-us", "unix-ns", "iso8601", "rfc2822", "http", "sql"] as const;
type Format = (typeof formats)[number];

/** Seconds until year 5138, then milliseconds, microseconds and nanoseconds by magnitude. */
function guessUnit(n: number): Exclude<Unit, "auto"> {
  const size = Math.abs(n);
  if (size < 1e11) return "s";
  if (size < 1e14) return "ms";
  if (size < 1e17) return "us";
  return "ns";
}

function parse(value: string, unit: Unit, zone: string, now: Date): { time: DateTime; format: Format } {
  const text = value.trim();
  if (text.toLowerCase() === "now") return { time: DateTime.fromJSDate(now, { zone }), format: "now" };
  if (/^-?\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    const used = unit === "auto" ? guessUnit(n) : unit;
    return { time: DateTime.fromMillis(Math.round(n * msPerUnit[used]), { zone }), format: `unix-${used}` };
  }
  const parsers: [Format, (t: string) => DateTime][] = [
    ["iso8601", (t) => DateTime.fromISO(t, { zone })],
    ["http", (t) => DateTime.fromHTTP(t, { zone })],
    ["rfc2822", (t) => DateTime.fromRFC2822(t, { zone })],
    ["sql", (t) => DateTime.fromSQL(t, { zone })],
  ];
  for (const [format, read] of parsers) {
    const time = read(text);
    if (time.isValid) return { time, format };
  }
  throw fieldError("value", "value is not a unix time, ISO 8601, RFC 2822, HTTP or SQL date");
}

export default defineEndpoint({
  name: "timestamp",
  method: "GET",
  price: "$0.001",
  summary: "Convert a unix time or date string to unix, ISO 8601, RFC 2822 and a time zone's local time",
  description:
    "Numbers are read as seconds, milliseconds, microseconds or nanoseconds by magnitude unless unit is set. Dates without an offset are read in tz. Precision is one millisecond.",
  input: v.object({
    value: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(100),
        v.description('Unix time, ISO 8601, RFC 2822, HTTP or SQL date, or "now"'),
      ),
      "now",
    ),
    unit: v.optional(
      v.pipe(v.picklist(units), v.description("Unit of a numeric value; auto guesses by magnitude")),
      "auto",
    ),
    tz: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(64),
        v.description("IANA time zone for the local view, e.g. Europe/Paris"),
      ),
      "UTC",
    ),
  }),
  output: v.object({
    format: v.pipe(v.picklist(formats), v.description("How the value was read")),
    unix: v.pipe(v.number(), v.description("Whole seconds since 1970-01-01T00:00:00Z")),
    unixMs: v.number(),
    iso: v.pipe(v.string(), v.description("ISO 8601 in UTC")),
    rfc2822: v.string(),
    httpDate: v.string(),
    local: v.object({
      zone: v.string(),
      iso: v.string(),
      offset: v.pipe(v.string(), v.description("UTC offset, e.g. +02:00")),
      offsetMinutes: v.number(),
      abbreviation: v.string(),
      isDst: v.boolean(),
      text: v.pipe(v.string(), v.description("Human-readable date and time in English")),
      weekday: v.string(),
      dayOfYear: v.number(),
      isoWeek: v.number(),
    }),
  }),
  example: {
    input: { value: "1700000000", unit: "auto", tz: "America/New_York" },
    output: {
      format: "unix-s",
      unix: 1700000000,
      unixMs: 1700000000000,
      iso: "2023-11-14T22:13:20.000Z",
      rfc2822: "Tue, 14 Nov 2023 22:13:20 +0000",
      httpDate: "Tue, 14 Nov 2023 22:13:20 GMT",
      local: {
        zone: "America/New_York",
        iso: "2023-11-14T17:13:20.000-05:00",
        offset: "-05:00",
        offsetMinutes: -300,
        abbreviation: "EST",
        isDst: false,
        text: "November 14, 2023 at 5:13:20 PM EST",
        weekday: "Tuesday",
        dayOfYear: 318,
        isoWeek: 46,
      },
    },
  },
  handler({ input, now }) {
    if (!DateTime.now().setZone(input.tz).isValid) throw fieldError("tz", `Unknown time zone ${input.tz}`);
    const { time, format } = parse(input.value, input.unit, input.tz, now());
    if (!time.isValid) throw fieldError("value", "value is outside the representable range of dates");
    const utc = time.toUTC();
    const local = time.setZone(input.tz).setLocale("en-US");
    return {
      format,
      unix: Math.floor(utc.toMillis() / 1000),
      unixMs: utc.toMillis(),
      iso: utc.toISO()!,
      rfc2822: utc.toRFC2822()!,
      httpDate: utc.toHTTP()!,
      local: {
        zone: local.zoneName!,
        iso: local.toISO()!,
        offset: local.toFormat("ZZ"),
        offsetMinutes: local.offset,
        abbreviation: local.offsetNameShort ?? local.toFormat("ZZ"),
        isDst: local.isInDST,
        text: local.toLocaleString(DateTime.DATETIME_FULL_WITH_SECONDS),
        weekday: local.weekdayLong!,
        dayOfYear: local.ordinal,
        isoWeek: local.weekNumber,
      },
    };
  },
});
