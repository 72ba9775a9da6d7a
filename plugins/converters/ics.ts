import { createHash } from "node:crypto";
import * as v from "valibot";
import type { DateArray, EventAttributes } from "ics";
import { DateTime, IANAZone } from "luxon";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";

/** The ics writer, loaded on the first call rather than at boot. */
const icsWriter = lazy(() => import("ics"));

const dateOrDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const isDateOnly = (text: string) => text.length === 10;
const when = (what: string) =>
  v.pipe(v.string(), v.regex(dateOrDateTime, "must be YYYY-MM-DD or an ISO 8601 date-time"), v.description(what));

const input = v.object({
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("Event title (SUMMARY)")),
  start: when(
    "Start: 2025-07-01T09:00 (local time in `timezone`), 2025-07-01T07:00Z (with an offset), or 2025-07-01 for an all-day event",
  ),
  end: v.optional(when("End, in the same form as start; for all-day events the last day, inclusive")),
  durationMinutes: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(527_040),
      v.description("Length in minutes, instead of end (timed events; default 60)"),
    ),
  ),
  timezone: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64),
      v.regex(/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/, "must be an IANA time zone"),
      v.description("IANA time zone for start and end given without an offset, e.g. Europe/Paris"),
    ),
    "UTC",
  ),
  location: v.optional(v.pipe(v.string(), v.maxLength(500), v.description("Where"))),
  description: v.optional(v.pipe(v.string(), v.maxLength(10_000), v.description("Details, plain text"))),
  url: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(2000),
      v.url(),
      v.regex(/^https?:\/\//, "must be an http(s) URL"),
      v.description("Link for the event"),
    ),
  ),
  uid: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(255),
      v.description("Stable identifier; reuse it to update an event. Default: derived from the fields"),
    ),
  ),
});
type Input = v.InferOutput<typeof input>;

export default defineEndpoint({
  name: "ics",
  method: "GET",
  price: "$0.01",
  summary: "Build an iCalendar (.ics, RFC 5545) event from a title, times, place and link",
  description:
    "Timed events are written in UTC, so every calendar shows them at the right local time. " +
    "UID and DTSTAMP are derived from the input, so the same input always gives the same file and calendars treat a re-import as the same event.",
  input,
  output: v.object({
    ics: v.pipe(v.string(), v.description("The .ics file (CRLF line endings), text/calendar")),
    uid: v.string(),
    allDay: v.boolean(),
    start: v.pipe(v.string(), v.description("UTC date-time, or the first day of an all-day event")),
    end: v.pipe(v.string(), v.description("UTC date-time, or the last day (inclusive) of an all-day event")),
  }),
  example: {
    input: {
      title: "Team sync",
      start: "2025-07-01T09:30",
      durationMinutes: 45,
      timezone: "Europe/Paris",
      location: "Room 4",
    },
    output: {
      ics: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nPRODID:-//converters//ics//EN\r\nMETHOD:PUBLISH\r\nX-PUBLISHED-TTL:PT1H\r\nBEGIN:VEVENT\r\nUID:df4fe185-d58d-58fd-b298-20d71d96af9a\r\nSUMMARY:Team sync\r\nDTSTAMP:20250701T073000Z\r\nDTSTART:20250701T073000Z\r\nDTEND:20250701T081500Z\r\nLOCATION:Room 4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      uid: "df4fe185-d58d-58fd-b298-20d71d96af9a",
      allDay: false,
      start: "2025-07-01T07:30:00Z",
      end: "2025-07-01T08:15:00Z",
    },
  },
  async handler({ input }) {
    const { createEvent } = await icsWriter();
    if (input.end !== undefined && input.durationMinutes !== undefined)
      throw fieldError("durationMinutes", "Give either end or durationMinutes, not both");
    if (!IANAZone.isValidZone(input.timezone)) throw fieldError("timezone", `Unknown time zone ${input.timezone}`);
    const uid = input.uid ?? uidFor(input);
    return isDateOnly(input.start) ? allDayEvent(createEvent, input, uid) : timedEvent(createEvent, input, uid);
  },
});

type CreateEvent = Awaited<ReturnType<typeof icsWriter>>["createEvent"];

function timedEvent(createEvent: CreateEvent, input: Input, uid: string) {
  const start = parse(input.start, input.timezone, "start");
  if (input.end !== undefined && isDateOnly(input.end))
    throw fieldError("end", "A timed event needs an end with a time");
  const end =
    input.end !== undefined
      ? parse(input.end, input.timezone, "end")
      : start.plus({ minutes: input.durationMinutes ?? 60 });
  if (end <= start) throw fieldError("end", "end must be after start");
  const ics = build(createEvent, input, uid, {
    start: start.toMillis(),
    end: end.toMillis(),
    startInputType: "utc",
    startOutputType: "utc",
    timestamp: start.toMillis(),
  });
  return { ics, uid, allDay: false, start: utcIso(start), end: utcIso(end) };
}

function allDayEvent(createEvent: CreateEvent, input: Input, uid: string) {
  if (input.durationMinutes !== undefined)
    throw fieldError("durationMinutes", "An all-day event takes an end date, not a duration");
  const first = parse(input.start, "UTC", "start");
  if (input.end !== undefined && !isDateOnly(input.end))
    throw fieldError("end", "An all-day event needs an end date without a time");
  const last = input.end !== undefined ? parse(input.end, "UTC", "end") : first;
  if (last < first) throw fieldError("end", "end must not be before start");
  const dayAfterLast = last.plus({ days: 1 });
  const ics = build(createEvent, input, uid, {
    start: dateArray(first),
    end: dateArray(dayAfterLast),
    timestamp: first.toMillis(),
  });
  return { ics, uid, allDay: true, start: first.toISODate()!, end: last.toISODate()! };
}

function parse(text: string, zone: string, field: string): DateTime {
  const time = DateTime.fromISO(text, { zone, setZone: false });
  if (!time.isValid) throw fieldError(field, `${field} is not a real date or time: ${time.invalidExplanation ?? text}`);
  return time.toUTC();
}

type Times = Pick<EventAttributes, "start" | "startInputType" | "startOutputType"> & {
  end: EventAttributes["start"];
  timestamp: number;
};

function build(createEvent: CreateEvent, input: Input, uid: string, times: Times): string {
  const event = {
    ...times,
    title: input.title,
    uid,
    productId: "-//converters//ics//EN",
    ...(input.location ? { location: input.location } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.url ? { url: input.url } : {}),
  } as EventAttributes;
  const { error, value } = createEvent(event);
  if (error || !value) throw fieldError("", error?.message ?? "The event could not be built");
  return value;
}

const dateArray = (day: DateTime): DateArray => [day.year, day.month, day.day];
const utcIso = (time: DateTime) => time.toUTC().toISO({ suppressMilliseconds: true })!;

/** A UUID v5 (name-based, SHA-1) of the event's fields: the same event always gets the same UID. */
function uidFor(input: Input): string {
  const name = JSON.stringify([
    input.title,
    input.start,
    input.end,
    input.durationMinutes,
    input.timezone,
    input.location,
    input.description,
    input.url,
  ]);
  const namespace = Buffer.from("6ba7b8119dad11d180b400c04fd430c8", "hex"); // RFC 4122 URL namespace
  const hash = createHash("sha1").update(namespace).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
