import * as v from "valibot";
import { DateTime, IANAZone } from "luxon";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";

/** The parser and the describer, loaded on the first call rather than at boot. */
const cronLibraries = lazy(async () => {
  const [{ CronExpressionParser }, { default: cronstrue }] = await Promise.all([
    import("cron-parser"),
    import("cronstrue"),
  ]);
  return { CronExpressionParser, cronstrue };
});

export default defineEndpoint({
  name: "cron",
  method: "GET",
  price: "$0.005",
  summary: "Validate a cron expression, describe it in English and list its next run times in a time zone",
  description:
    "Takes 5 fields (minute hour day-of-month month day-of-week), 6 with leading seconds, or a macro such as " +
    "@daily. L, W and # are supported. An invalid expression answers 200 with valid false and the reason.",
  input: v.object({
    expr: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(200),
      v.description("Cron expression, e.g. '*/15 9-17 * * 1-5'"),
    ),
    tz: v.optional(v.pipe(v.string(), v.maxLength(64), v.description("IANA time zone the schedule runs in")), "UTC"),
    count: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("How many next run times")),
      5,
    ),
    from: v.optional(
      v.pipe(v.string(), v.isoTimestamp(), v.description("Start listing after this instant (ISO 8601); default now")),
    ),
  }),
  output: v.object({
    expression: v.string(),
    valid: v.boolean(),
    error: v.nullable(v.string()),
    description: v.nullable(v.string()),
    timezone: v.string(),
    next: v.array(
      v.object({
        utc: v.pipe(v.string(), v.description("ISO 8601 in UTC")),
        local: v.pipe(v.string(), v.description("ISO 8601 with the zone's offset")),
      }),
    ),
  }),
  example: {
    input: { expr: "*/30 9-10 * * 1-5", tz: "Europe/Berlin", count: 3, from: "2025-03-28T08:45:00Z" },
    output: {
      expression: "*/30 9-10 * * 1-5",
      valid: true,
      error: null,
      description: "Every 30 minutes, between 09:00 and 10:59, Monday through Friday",
      timezone: "Europe/Berlin",
      next: [
        { utc: "2025-03-28T09:00:00.000Z", local: "2025-03-28T10:00:00.000+01:00" },
        { utc: "2025-03-28T09:30:00.000Z", local: "2025-03-28T10:30:00.000+01:00" },
        { utc: "2025-03-31T07:00:00.000Z", local: "2025-03-31T09:00:00.000+02:00" },
      ],
    },
  },
  async handler({ input, now }) {
    const { CronExpressionParser, cronstrue } = await cronLibraries();
    if (!IANAZone.isValidZone(input.tz)) {
      const message = `Unknown IANA time zone ${JSON.stringify(input.tz)}`;
      throw fieldError("tz", message);
    }
    const expression = input.expr.trim();
    const result = { expression, timezone: input.tz };
    try {
      const description = describe(cronstrue, expression);
      const schedule = CronExpressionParser.parse(expression, {
        tz: input.tz,
        currentDate: input.from ? new Date(input.from) : now(),
      });
      const next = schedule.take(input.count).map((date) => {
        const instant = date.toDate();
        return { utc: instant.toISOString(), local: DateTime.fromJSDate(instant, { zone: input.tz }).toISO()! };
      });
      return { ...result, valid: true, error: null, description, next };
    } catch (error) {
      return { ...result, valid: false, error: (error as Error).message, description: null, next: [] };
    }
  },
});

/** cronstrue also enforces the field count (cron-parser silently fills missing fields). */
function describe(cronstrue: Awaited<ReturnType<typeof cronLibraries>>["cronstrue"], expression: string): string {
  const fields = expression.split(/\s+/).length;
  if (!expression.startsWith("@") && fields !== 5 && fields !== 6)
    throw new Error(`Expected 5 or 6 fields, got ${fields}`);
  try {
    return cronstrue.toString(expression, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch (error) {
    throw new Error(String(error instanceof Error ? error.message : error).replace(/^Error: /, ""));
  }
}
