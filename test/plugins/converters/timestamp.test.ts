import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import timestampEndpoint from "../../../plugins/converters/timestamp.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  { name: "unix seconds", input: { value: "1700000000" }, format: "unix-s", iso: "2023-11-14T22:13:20.000Z" },
  {
    name: "unix milliseconds by magnitude",
    input: { value: "1700000000123" },
    format: "unix-ms",
    iso: "2023-11-14T22:13:20.123Z",
  },
  {
    name: "unix microseconds by magnitude",
    input: { value: "1700000000123456" },
    format: "unix-us",
    iso: "2023-11-14T22:13:20.123Z",
  },
  {
    name: "unix nanoseconds by magnitude",
    input: { value: "1700000000123456789" },
    format: "unix-ns",
    iso: "2023-11-14T22:13:20.123Z",
  },
  {
    name: "a small number read as ms when unit says so",
    input: { value: "1500", unit: "ms" },
    format: "unix-ms",
    iso: "1970-01-01T00:00:01.500Z",
  },
  {
    name: "negative seconds before 1970",
    input: { value: "-86400" },
    format: "unix-s",
    iso: "1969-12-31T00:00:00.000Z",
  },
  { name: "fractional seconds", input: { value: "1.25" }, format: "unix-s", iso: "1970-01-01T00:00:01.250Z" },
  {
    name: "ISO 8601 with an offset",
    input: { value: "2024-02-29T12:00:00+02:00" },
    format: "iso8601",
    iso: "2024-02-29T10:00:00.000Z",
  },
  {
    name: "ISO 8601 without offset is read in tz",
    input: { value: "2024-07-01T12:00", tz: "Europe/Paris" },
    format: "iso8601",
    iso: "2024-07-01T10:00:00.000Z",
  },
  { name: "a date only", input: { value: "2024-01-01" }, format: "iso8601", iso: "2024-01-01T00:00:00.000Z" },
  {
    name: "RFC 2822",
    input: { value: "Tue, 14 Nov 2023 22:13:20 +0000" },
    format: "rfc2822",
    iso: "2023-11-14T22:13:20.000Z",
  },
  {
    name: "HTTP date",
    input: { value: "Tue, 14 Nov 2023 22:13:20 GMT" },
    format: "http",
    iso: "2023-11-14T22:13:20.000Z",
  },
  { name: "SQL datetime", input: { value: "2023-11-14 22:13:20" }, format: "sql", iso: "2023-11-14T22:13:20.000Z" },
];

for (const c of cases) {
  test(`timestamp: ${c.name}`, async () => {
    const out = await service.call(timestampEndpoint, c.input as InputOf<typeof timestampEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.format, c.format);
    assert.equal(data.iso, c.iso);
    assert.equal(data.unixMs, Date.parse(c.iso));
    assert.equal(data.unix, Math.floor(Date.parse(c.iso) / 1000));
  });
}

test("timestamp: the local view follows the zone and its daylight saving time", async () => {
  const summer = (await service.call(timestampEndpoint, { value: "1719835200", tz: "Europe/Paris" })).body as any;
  assert.deepEqual(
    {
      iso: summer.data.local.iso,
      offset: summer.data.local.offset,
      minutes: summer.data.local.offsetMinutes,
      dst: summer.data.local.isDst,
      abbr: summer.data.local.abbreviation,
    },
    { iso: "2024-07-01T14:00:00.000+02:00", offset: "+02:00", minutes: 120, dst: true, abbr: "GMT+2" },
  );
  const winter = (await service.call(timestampEndpoint, { value: "1700000000", tz: "America/New_York" })).body as any;
  assert.equal(winter.data.local.abbreviation, "EST");
  assert.equal(winter.data.local.text, "November 14, 2023 at 5:13:20 PM EST");
  assert.equal(winter.data.local.weekday, "Tuesday");
  assert.equal(winter.data.rfc2822, "Tue, 14 Nov 2023 22:13:20 +0000");
  assert.equal(winter.data.httpDate, "Tue, 14 Nov 2023 22:13:20 GMT");
});

test("timestamp: now is the default value", async () => {
  const before = Date.now();
  const out = (await service.call(timestampEndpoint, {})).body as any;
  assert.equal(out.data.format, "now");
  assert.ok(out.data.unixMs >= before && out.data.unixMs <= Date.now(), JSON.stringify(out.data));
  assert.equal(out.data.local.zone, "UTC");
});

const unreadable = [
  { name: "words that are no date", input: { value: "next tuesday" }, field: "value" },
  { name: "an impossible month", input: { value: "2023-13-01" }, field: "value" },
  { name: "a date beyond the representable range", input: { value: "9".repeat(30), unit: "s" }, field: "value" },
  { name: "an unknown time zone", input: { value: "0", tz: "Mars/Olympus" }, field: "tz" },
];
for (const c of unreadable) {
  test(`timestamp: ${c.name} is a 400 on ${c.field}`, async () => {
    const out = await service.call("timestamp", c.input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === c.field),
      JSON.stringify(out.body),
    );
  });
}

const bad = [
  { name: "unknown unit", query: "value=1&unit=minutes", field: "unit" },
  { name: "empty value", query: "value=", field: "value" },
  { name: "value over 100 characters", query: `value=${"1".repeat(101)}`, field: "value" },
];
for (const c of bad) {
  test(`timestamp: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/timestamp?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("timestamp: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/timestamp?value=1700000000");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
