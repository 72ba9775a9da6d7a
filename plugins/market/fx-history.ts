import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { CurrencyCode, FRANKFURTER, frankfurterDay, frankfurterSeries, IsoDate } from "./_fx.ts";

const MAX_DAYS = 366;

export default defineEndpoint({
  name: "fx-history",
  method: "GET",
  price: "$0.01",
  summary: "Exchange rates on a past date or as a daily series between two dates (ECB reference rates)",
  description:
    "From Frankfurter (ECB reference rates, from 1999). Give date for one day, or start (and end, default today) for a series of at most 366 days; neither gives the latest. " +
    "Weekends and holidays have no rates: a single date answers with the business day before it.",
  input: v.object({
    base: v.optional(v.pipe(CurrencyCode, v.description("Base currency")), "USD"),
    date: v.optional(v.pipe(IsoDate, v.description("One day, YYYY-MM-DD"))),
    start: v.optional(v.pipe(IsoDate, v.description("First day of a series, YYYY-MM-DD"))),
    end: v.optional(v.pipe(IsoDate, v.description("Last day of a series, YYYY-MM-DD; today when unset"))),
    symbols: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200),
        v.regex(/^[A-Za-z]{3}(,[A-Za-z]{3})*$/, "comma-separated currency codes"),
        v.description("Quote currencies, comma-separated; all when unset"),
      ),
    ),
  }),
  output: v.object({
    base: v.string(),
    days: v.array(v.object({ date: v.string(), rates: v.record(v.string(), v.number()) })),
  }),
  example: {
    input: { base: "USD", date: "2025-01-14", symbols: "EUR,GBP" },
    output: { base: "USD", days: [{ date: "2025-01-14", rates: { EUR: 0.97182, GBP: 0.81921 } }] },
  },
  cacheTtl: 3600,
  upstreams: [FRANKFURTER],
  async handler({ input, upstream, now }) {
    const api = upstream(FRANKFURTER);
    const base = input.base.toUpperCase();
    const symbols = input.symbols?.toUpperCase().split(",");
    if (input.date && (input.start || input.end))
      throw badRequest("Give date, or start and end, not both", {
        issues: [{ field: "date", message: "not with start or end" }],
      });
    if (input.end && !input.start)
      throw badRequest("end needs start", { issues: [{ field: "start", message: "required with end" }] });
    if (input.start) {
      const end = input.end ?? now().toISOString().slice(0, 10);
      const span = (Date.parse(end) - Date.parse(input.start)) / 86_400_000;
      if (!(span >= 0))
        throw badRequest("start must be on or before end", { issues: [{ field: "start", message: "after end" }] });
      if (span > MAX_DAYS)
        throw badRequest(`A series spans at most ${MAX_DAYS} days`, {
          issues: [{ field: "end", message: `more than ${MAX_DAYS} days after start` }],
        });
      const series = await frankfurterSeries(api, base, symbols, input.start, end);
      return {
        base: series.base,
        days: Object.entries(series.rates)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([date, rates]) => ({ date, rates })),
      };
    }
    const day = await frankfurterDay(api, base, symbols, input.date);
    return { base: day.base, days: [{ date: day.date, rates: day.rates }] };
  },
});
