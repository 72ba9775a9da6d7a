import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import ics from "../../../plugins/converters/ics.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import icsEndpoint from "../../../plugins/converters/ics.ts";

const service = await startTestService({ plugins: ["converters"] });

const call = async (input: InputOf<typeof icsEndpoint>) => {
  const out = await service.call(icsEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};
const lines = (text: string) => text.split("\r\n");
const uuidV5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("ics: a timed event becomes a complete VCALENDAR in UTC", async () => {
  const data = await call({ title: "Launch", start: "2025-03-10T15:00Z", end: "2025-03-10T16:30Z", uid: "launch-1" });
  assert.equal(
    data.ics,
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "CALSCALE:GREGORIAN",
      "PRODID:-//converters//ics//EN",
      "METHOD:PUBLISH",
      "X-PUBLISHED-TTL:PT1H",
      "BEGIN:VEVENT",
      "UID:launch-1",
      "SUMMARY:Launch",
      "DTSTAMP:20250310T150000Z",
      "DTSTART:20250310T150000Z",
      "DTEND:20250310T163000Z",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n"),
  );
  assert.deepEqual(
    { ...data, ics: undefined },
    { ics: undefined, uid: "launch-1", allDay: false, start: "2025-03-10T15:00:00Z", end: "2025-03-10T16:30:00Z" },
  );
});

const times = [
  {
    name: "local time in Paris in summer (UTC+2)",
    input: { start: "2025-07-01T09:00", timezone: "Europe/Paris" },
    start: "20250701T070000Z",
    end: "20250701T080000Z",
  },
  {
    name: "local time in New York in winter (UTC-5)",
    input: { start: "2025-01-15T09:00", timezone: "America/New_York", durationMinutes: 30 },
    start: "20250115T140000Z",
    end: "20250115T143000Z",
  },
  {
    name: "an explicit offset wins over the time zone",
    input: { start: "2025-01-15T10:00:00-05:00", timezone: "Asia/Tokyo" },
    start: "20250115T150000Z",
    end: "20250115T160000Z",
  },
  {
    name: "an end in another offset",
    input: { start: "2025-06-01T23:00Z", end: "2025-06-02T03:00+02:00" },
    start: "20250601T230000Z",
    end: "20250602T010000Z",
  },
  {
    name: "60 minutes by default",
    input: { start: "2025-12-31T23:30Z" },
    start: "20251231T233000Z",
    end: "20260101T003000Z",
  },
];
for (const c of times) {
  test(`ics: ${c.name}`, async () => {
    const data = await call({ title: "t", ...c.input });
    const ics = lines(data.ics);
    assert.ok(ics.includes(`DTSTART:${c.start}`), data.ics);
    assert.ok(ics.includes(`DTEND:${c.end}`), data.ics);
  });
}

test("ics: a date without a time is an all-day event; end is the last day, inclusive", async () => {
  const oneDay = await call({ title: "Holiday", start: "2025-07-04" });
  assert.ok(lines(oneDay.ics).includes("DTSTART;VALUE=DATE:20250704"));
  assert.ok(lines(oneDay.ics).includes("DTEND;VALUE=DATE:20250705"));
  assert.deepEqual([oneDay.allDay, oneDay.start, oneDay.end], [true, "2025-07-04", "2025-07-04"]);

  const threeDays = await call({ title: "Conference", start: "2025-12-30", end: "2026-01-01" });
  assert.ok(lines(threeDays.ics).includes("DTEND;VALUE=DATE:20260102"));
  assert.equal(threeDays.end, "2026-01-01");
});

test("ics: text fields are escaped and long lines folded (RFC 5545)", async () => {
  const data = await call({
    title: "Review; budget, Q3",
    start: "2025-09-01T10:00Z",
    location: "Room 1, floor 2",
    description: "Line one\nLine two; with, commas",
    url: "https://example.com/meet",
  });
  const ics = lines(data.ics);
  assert.ok(ics.includes("SUMMARY:Review\\; budget\\, Q3"), data.ics);
  assert.ok(ics.includes("LOCATION:Room 1\\, floor 2"));
  assert.ok(ics.includes("DESCRIPTION:Line one\\nLine two\\; with\\, commas"));
  assert.ok(ics.includes("URL:https://example.com/meet"));
  const long = await call({ title: "x".repeat(200), start: "2025-09-01T10:00Z" });
  assert.ok(
    lines(long.ics).every((l) => Buffer.byteLength(l) <= 75),
    "no line over 75 octets",
  );
});

test("ics: the UID is a UUID v5 of the fields, stable across calls", async () => {
  const a = await call({ title: "Sync", start: "2025-07-01T09:00Z" });
  const again = await call({ title: "Sync", start: "2025-07-01T09:00Z" });
  const other = await call({ title: "Sync 2", start: "2025-07-01T09:00Z" });
  assert.match(a.uid, uuidV5);
  assert.equal(again.uid, a.uid);
  assert.notEqual(other.uid, a.uid);
  assert.ok(lines(a.ics).includes(`UID:${a.uid}`));
});

test("ics: the documented example is a real call", async () => {
  const out = await service.call(icsEndpoint, ics.example.input);
  assert.deepEqual(dataOf(out), ics.example.output);
});

const rejected = [
  {
    name: "both end and durationMinutes",
    input: { start: "2025-07-01T09:00Z", end: "2025-07-01T10:00Z", durationMinutes: 30 },
    field: "durationMinutes",
  },
  { name: "end before start", input: { start: "2025-07-01T09:00Z", end: "2025-07-01T08:00Z" }, field: "end" },
  { name: "end equal to start", input: { start: "2025-07-01T09:00Z", end: "2025-07-01T09:00Z" }, field: "end" },
  {
    name: "an unknown time zone",
    input: { start: "2025-07-01T09:00", timezone: "Mars/Olympus_Mons" },
    field: "timezone",
  },
  { name: "a date that does not exist", input: { start: "2025-02-30T09:00" }, field: "start" },
  {
    name: "a timed start with a date-only end",
    input: { start: "2025-07-01T09:00Z", end: "2025-07-02" },
    field: "end",
  },
  { name: "an all-day start with a timed end", input: { start: "2025-07-01", end: "2025-07-02T10:00Z" }, field: "end" },
  {
    name: "an all-day event with a duration",
    input: { start: "2025-07-01", durationMinutes: 60 },
    field: "durationMinutes",
  },
  { name: "an all-day end before its start", input: { start: "2025-07-03", end: "2025-07-01" }, field: "end" },
];
for (const c of rejected) {
  test(`ics: ${c.name} is a 400 naming ${c.field}`, async () => {
    const out = await service.call(icsEndpoint, { title: "t", ...c.input });
    assert.equal(out.status, 400, JSON.stringify(out.body));
    assert.deepEqual(
      issuesOf(out).map((i: any) => i.field),
      [c.field],
    );
  });
}

const bad = [
  { name: "missing title", query: "start=2025-07-01", field: "title" },
  { name: "missing start", query: "title=t", field: "start" },
  { name: "start in words", query: "title=t&start=tomorrow", field: "start" },
  { name: "start with a slash date", query: "title=t&start=07/01/2025", field: "start" },
  { name: "duration of zero", query: "title=t&start=2025-07-01T09:00Z&durationMinutes=0", field: "durationMinutes" },
  { name: "a non-http url", query: "title=t&start=2025-07-01&url=ftp://example.com/x", field: "url" },
  { name: "time zone with spaces", query: "title=t&start=2025-07-01&timezone=New%20York", field: "timezone" },
  { name: "title over 500 characters", query: `title=${"t".repeat(501)}&start=2025-07-01`, field: "title" },
];
for (const c of bad) {
  test(`ics: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/ics?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("ics: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/ics?title=Sync&start=2025-07-01T09:00Z");
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "10000");
});
