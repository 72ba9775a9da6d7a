import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { CurrencyCode, ER_API, erApiLatest, FRANKFURTER, frankfurterDay } from "./_fx.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

export default defineEndpoint({
  name: "fx",
  method: "GET",
  price: "$0.02",
  mcp: true,
  summary:
    "Latest exchange rate between two currencies from Frankfurter (ECB) and ExchangeRate-API, with the converted amount",
  description:
    "Both sources are read at once: the rate is Frankfurter's (ECB reference, published about 16:00 CET on business days) when it answers, ExchangeRate-API's otherwise; " +
    "each source's own quote is listed. A currency neither source quotes is a 404.",
  input: v.object({
    from: v.optional(v.pipe(CurrencyCode, v.description("Currency to convert from")), "USD"),
    to: v.optional(v.pipe(CurrencyCode, v.description("Currency to convert to")), "EUR"),
    amount: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1e15), v.description("Amount in the from currency")),
      1,
    ),
  }),
  output: v.object({
    from: v.string(),
    to: v.string(),
    rate: v.number(),
    date: v.pipe(v.string(), v.description("Date of the rate, YYYY-MM-DD")),
    source: v.string(),
    amount: v.number(),
    converted: v.pipe(v.string(), v.description("amount x rate, decimal")),
    inverse: v.string(),
    quotes: v.array(v.object({ venue: v.string(), rate: v.number(), date: v.string() })),
    sources: SourcesReport,
  }),
  example: {
    input: { from: "USD", to: "EUR", amount: 100 },
    output: {
      from: "USD",
      to: "EUR",
      rate: 0.97182,
      date: "2025-01-14",
      source: "frankfurter",
      amount: 100,
      converted: "97.182",
      inverse: "1.0289971394",
      quotes: [
        { venue: "frankfurter", rate: 0.97182, date: "2025-01-14" },
        { venue: "exchangerate-api", rate: 0.971605, date: "2025-01-15" },
      ],
      sources: { answered: ["frankfurter", "exchangerate-api"], missing: [] },
    },
  },
  cacheTtl: 3600,
  upstreams: [FRANKFURTER, ER_API],
  async handler({ input, upstream, signal }) {
    const from = input.from.toUpperCase();
    const to = input.to.toUpperCase();
    const { values, sources } = await gatherVenues(
      {
        [FRANKFURTER]: () => frankfurterDay(upstream(FRANKFURTER), from, [to]),
        [ER_API]: () => erApiLatest(upstream(ER_API), from),
      },
      signal,
    );
    const quotes = values.flatMap(({ venue, value }) =>
      from === to
        ? [{ venue, rate: 1, date: value.date }]
        : typeof value.rates[to] === "number"
          ? [{ venue, rate: value.rates[to], date: value.date }]
          : [],
    );
    if (quotes.length === 0) throw notFound(`No source quotes ${from} to ${to}`);
    const chosen = quotes[0];
    return {
      from,
      to,
      rate: chosen.rate,
      date: chosen.date,
      source: chosen.venue,
      amount: input.amount,
      converted: fixed(new Decimal(input.amount).times(chosen.rate), 10),
      inverse: fixed(new Decimal(1).dividedBy(chosen.rate), 10),
      quotes,
      sources,
    };
  },
});
