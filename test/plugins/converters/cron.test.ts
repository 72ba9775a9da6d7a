import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const schedules = [
  {
    name: "weekday half hours across the DST change",
    input: { expr: "*/30 9-10 * * 1-5", tz: "Europe/Berlin", count: 3, from: "2025-03-28T08:45:00Z" },
    description: "Every 30 minutes, between 09:00 and 10:59, Monday through Friday",
    next: [
      { utc: "2025-03-28T09:00:00.000Z", local: "2025-03-28T10:00:00.000+01:00" },
      { utc: "2025-03-28T09:30:00.000Z", local: "2025-03-28T10:30:00.000+01:00" },
      { utc: "2025-03-31T07:00:00.000Z", local: "2025-03-31T09:00:00.000+02:00" },
    ],
  },
  {
    name: "six fields with seconds, UTC by default",
    input: { expr: "30 0 9 * * *", count: 2, from: "2025-01-01T00:00:00Z" },
    description: "At 09:00:30",
    next: [
      { utc: "2025-01-01T09:00:30.000Z", local: "2025-01-01T09:00:30.000Z" },
      { utc: "2025-01-02T09:00:30.000Z", local: "2025-01-02T09:00:30.000Z" },
    ],
  },
  {
    name: "a macro in New York",
    input: { expr: "@daily", tz: "America/New_York", count: 1, from: "2025-07-01T12:00:00Z" },
    description: "At 00:00",
    next: [{ utc: "2025-07-02T04:00:00.000Z", local: "2025-07-02T00:00:00.000-04:00" }],
  },
  {
    name: "a time skipped by the spring DST change runs an hour later that day",
    input: { expr: "0 2 * * *", tz: "America/New_York", count: 3, from: "2025-03-08T00:00:00Z" },
    description: "At 02:00",
    next: [
      { utc: "2025-03-08T07:00:00.000Z", local: "2025-03-08T02:00:00.000-05:00" },
      { utc: "2025-03-09T07:00:00.000Z", local: "2025-03-09T03:00:00.000-04:00" },
      { utc: "2025-03-10T06:00:00.000Z", local: "2025-03-10T02:00:00.000-04:00" },
    ],
  },
  {
    name: "the third Friday of the month",
    input: { expr: "0 12 * * 5#3", tz: "UTC", count: 2, from: "2025-01-01T00:00:00Z" },
    description: "At 12:00, on the third Friday of the month",
    next: [
      { utc: "2025-01-17T12:00:00.000Z", local: "2025-01-17T12:00:00.000Z" },
      { utc: "2025-02-21T12:00:00.000Z", local: "2025-02-21T12:00:00.000Z" },
    ],
  },
  {
    name: "the last day of the month",
    input: { expr: "0 0 L * *", tz: "Asia/Tokyo", count: 2, from: "2025-02-01T00:00:00Z" },
    description: "At 00:00, on the last day of the month",
    next: [
      { utc: "2025-02-27T15:00:00.000Z", local: "2025-02-28T00:00:00.000+09:00" },
      { utc: "2025-03-30T15:00:00.000Z", local: "2025-03-31T00:00:00.000+09:00" },
    ],
  },
];

for (const c of schedules) {
  test(`cron: ${c.name}`, async () => {
    const data = dataOf(await service.call("cron", c.input));
    assert.equal(data.valid, true);
    assert.equal(data.error, null);
    assert.equal(data.description, c.description);
    assert.deepEqual(data.next, c.next);
  });
}

test("cron: five next runs by default, starting now", async () => {
  const before = Date.now();
  const data = dataOf(await service.call("cron", { expr: "* * * * *" }));
  assert.equal(data.timezone, "UTC");
  assert.equal(data.next.length, 5);
  const first = Date.parse(data.next[0].utc);
  assert.ok(first > before && first <= before + 60_000, data.next[0].utc);
});

const invalid = [
  { name: "a minute out of range", expr: "61 * * * *", error: /59/ },
  { name: "too few fields", expr: "* * *", error: /Expected 5 or 6 fields, got 3/ },
  { name: "too many fields", expr: "0 0 1 1 * 2030 5", error: /Expected 5 or 6 fields, got 7/ },
  { name: "a day that never comes", expr: "0 0 31 2 *", error: /day of month/ },
  { name: "words that are not cron", expr: "every day at noon", error: /Expected 5 or 6 fields, got 4/ },
  { name: "five fields of nonsense", expr: "a b c d e", error: /invalid values: 'a'/ },
];
for (const c of invalid) {
  test(`cron: ${c.name} answers valid false with the reason`, async () => {
    const data = dataOf(await service.call("cron", { expr: c.expr, from: "2025-01-01T00:00:00Z" }));
    assert.equal(data.valid, false);
    assert.match(data.error, c.error);
    assert.equal(data.description, null);
    assert.deepEqual(data.next, []);
    assert.equal(data.expression, c.expr);
  });
}

test("cron: an unknown time zone is a 400 on tz", async () => {
  expectHandler400(await service.call("cron", { expr: "0 0 * * *", tz: "Mars/Olympus_Mons" }), "tz");
});

const bad = [
  { name: "missing expr", query: "", field: "expr" },
  { name: "count of 0", query: query({ expr: "0 0 * * *", count: 0 }), field: "count" },
  { name: "count over 100", query: query({ expr: "0 0 * * *", count: 101 }), field: "count" },
  { name: "from that is not a timestamp", query: query({ expr: "0 0 * * *", from: "yesterday" }), field: "from" },
  { name: "expr over 200 characters", query: query({ expr: "*".repeat(201) }), field: "expr" },
];
for (const c of bad) {
  test(`cron: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/cron?${c.query}`), c.field);
  });
}

test("cron: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/cron?${query({ expr: "0 0 * * *" })}`));
});
