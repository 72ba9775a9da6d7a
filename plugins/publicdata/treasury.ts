import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** What the code reads of Fiscal Data's rows: average interest rates, and Debt to the Penny. */
const RateRow = v.object({
  record_date: v.string(),
  security_type_desc: v.string(),
  security_desc: v.string(),
  avg_interest_rate_amt: v.string(),
});
type RateRow = v.InferOutput<typeof RateRow>;
const DebtRow = v.object({
  record_date: v.string(),
  debt_held_public_amt: v.string(),
  intragov_hold_amt: v.string(),
  tot_pub_debt_out_amt: v.string(),
});

const Money = v.pipe(v.string(), v.description("US dollars, as published (cents included)"));

export default defineEndpoint({
  name: "treasury",
  method: "GET",
  price: "$0.02",
  summary: "Average interest rates on US Treasury securities by month, with the latest total public debt",
  description:
    "From the US Treasury's Fiscal Data API: average interest rates on marketable (bills, notes, bonds, TIPS, FRN) and non-marketable " +
    "securities, one set per month-end for the last `months` months, newest first; and the latest Debt to the Penny. Rates are percent " +
    "and amounts dollars, both kept as the strings Treasury publishes.",
  input: v.object({
    months: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(120), v.description("How many months back")),
      12,
    ),
  }),
  output: v.object({
    months: v.array(
      v.object({
        date: v.pipe(v.string(), v.description("Month-end record date, YYYY-MM-DD")),
        rates: v.array(v.object({ type: v.string(), security: v.string(), ratePercent: v.string() })),
      }),
    ),
    debt: v.nullable(v.object({ date: v.string(), total: Money, heldByPublic: Money, intragovernmental: Money })),
    url: v.string(),
  }),
  example: {
    input: { months: 1 },
    output: {
      months: [
        {
          date: "2024-12-31",
          rates: [
            { type: "Marketable", security: "Treasury Bills", ratePercent: "4.456" },
            { type: "Marketable", security: "Treasury Notes", ratePercent: "2.900" },
            { type: "Marketable", security: "Treasury Bonds", ratePercent: "3.331" },
            { type: "Interest-bearing Debt", security: "Total Interest-bearing Debt", ratePercent: "3.297" },
          ],
        },
      ],
      debt: {
        date: "2025-01-14",
        total: "36168219524541.14",
        heldByPublic: "28923187408233.25",
        intragovernmental: "7245032116307.89",
      },
      url: "https://fiscaldata.treasury.gov/datasets/average-interest-rates-treasury-securities/",
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["treasury"],
  async handler({ input, upstream, now }) {
    const api = upstream("treasury");
    const today = now();
    const since = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - input.months, 1))
      .toISOString()
      .slice(0, 10);
    const [rates, debt] = await Promise.all([
      api.json("/v2/accounting/od/avg_interest_rates", v.object({ data: v.array(RateRow) }), {
        query: { filter: `record_date:gte:${since}`, sort: "-record_date", "page[size]": 1000 },
      }),
      api.json("/v2/accounting/od/debt_to_penny", v.object({ data: v.array(DebtRow) }), {
        query: { sort: "-record_date", "page[size]": 1 },
      }),
    ]);
    const byDate = new Map<string, RateRow[]>();
    for (const row of rates.data) byDate.set(row.record_date, [...(byDate.get(row.record_date) ?? []), row]);
    const latest = debt.data[0];
    return {
      months: [...byDate.entries()].slice(0, input.months).map(([date, rows]) => ({
        date,
        rates: rows.map((r) => ({
          type: r.security_type_desc,
          security: r.security_desc,
          ratePercent: r.avg_interest_rate_amt,
        })),
      })),
      debt: latest
        ? {
            date: latest.record_date,
            total: latest.tot_pub_debt_out_amt,
            heldByPublic: latest.debt_held_public_amt,
            intragovernmental: latest.intragov_hold_amt,
          }
        : null,
      url: "https://fiscaldata.treasury.gov/datasets/average-interest-rates-treasury-securities/",
    };
  },
});
