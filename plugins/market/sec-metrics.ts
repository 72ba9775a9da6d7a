import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { Decimal, fixed } from "./_decimal.ts";

const SEC_FILES = "sec-files";
const SEC_DATA = "sec-data";

/** What the code reads of one XBRL fact (dates as YYYY-MM-DD). */
const Fact = v.object({
  start: v.optional(v.pipe(v.string(), v.isoDate())),
  end: v.pipe(v.string(), v.isoDate()),
  val: v.number(),
  form: v.string(),
  filed: v.string(),
});
type Fact = v.InferOutput<typeof Fact>;

/** Each metric with the XBRL concepts companies use for it, first match wins; flows are full fiscal years from 10-K filings. */
const METRICS = [
  {
    name: "revenue",
    taxonomy: "us-gaap",
    concepts: ["RevenueFromContractWithCustomerExcludingAssessedTax", "Revenues", "SalesRevenueNet"],
    unit: "USD",
    flow: true,
  },
  { name: "netIncome", taxonomy: "us-gaap", concepts: ["NetIncomeLoss"], unit: "USD", flow: true },
  { name: "epsDiluted", taxonomy: "us-gaap", concepts: ["EarningsPerShareDiluted"], unit: "USD/shares", flow: true },
  {
    name: "operatingCashFlow",
    taxonomy: "us-gaap",
    concepts: ["NetCashProvidedByUsedInOperatingActivities"],
    unit: "USD",
    flow: true,
  },
  { name: "assets", taxonomy: "us-gaap", concepts: ["Assets"], unit: "USD", flow: false },
  { name: "liabilities", taxonomy: "us-gaap", concepts: ["Liabilities"], unit: "USD", flow: false },
  { name: "equity", taxonomy: "us-gaap", concepts: ["StockholdersEquity"], unit: "USD", flow: false },
  {
    name: "sharesOutstanding",
    taxonomy: "dei",
    concepts: ["EntityCommonStockSharesOutstanding"],
    unit: "shares",
    flow: false,
  },
] as const;

/** What the code reads of SEC's ticker list and of a company's facts: the metrics' concepts, in the metric's unit. */
const Tickers = v.record(v.string(), v.object({ cik_str: v.number(), ticker: v.string(), title: v.string() }));
const conceptsOf = (taxonomy: (typeof METRICS)[number]["taxonomy"]) =>
  v.optional(
    v.object(
      Object.fromEntries(
        METRICS.filter((m) => m.taxonomy === taxonomy).flatMap((m) =>
          m.concepts.map((c) => [
            c,
            v.optional(v.object({ units: v.object({ [m.unit]: v.optional(v.array(Fact)) }) })),
          ]),
        ),
      ),
    ),
  );
const CompanyFacts = v.object({
  entityName: v.optional(v.string()),
  facts: v.object({ "us-gaap": conceptsOf("us-gaap"), dei: conceptsOf("dei") }),
});

const days = (f: Fact) => (f.start ? (Date.parse(f.end) - Date.parse(f.start)) / 86_400_000 : 0);

/** Full-year 10-K figures (one per period end, the latest filing), oldest first; or every point-in-time figure. */
function series(facts: Fact[], flow: boolean): Fact[] {
  const kept = facts.filter((f) => (flow ? /^10-K/.test(f.form) && days(f) > 330 && days(f) < 400 : true));
  const byEnd = new Map<string, Fact>();
  for (const f of kept) if (!byEnd.has(f.end) || byEnd.get(f.end)!.filed < f.filed) byEnd.set(f.end, f);
  return [...byEnd.values()].sort((a, b) => a.end.localeCompare(b.end));
}

const Metric = v.object({
  name: v.string(),
  concept: v.pipe(v.string(), v.description("XBRL concept used, taxonomy:tag")),
  unit: v.string(),
  value: v.string(),
  periodStart: v.nullable(v.string()),
  periodEnd: v.string(),
  form: v.string(),
  filed: v.string(),
  previousValue: v.nullable(v.pipe(v.string(), v.description("Prior fiscal year (flows) or prior report (balances)"))),
  changePercent: v.nullable(v.string()),
});

export default defineEndpoint({
  name: "sec-metrics",
  method: "GET",
  price: "$0.03",
  summary:
    "Key fundamentals of a US-listed company from its SEC XBRL filings: revenue, net income, EPS, cash flow, balance sheet, shares, growth and margin",
  description:
    "Ticker to CIK through SEC's company_tickers.json, then the company's XBRL companyfacts. Flows (revenue, net income, EPS, operating cash flow) are the latest full fiscal year from 10-K filings " +
    "against the year before; balances are the latest reported figure. Revenue tags vary by company: the first present of a fallback list is used and named. Public domain data.",
  input: v.object({
    ticker: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(10),
      v.regex(/^[A-Za-z][A-Za-z0-9.-]*$/, "a US ticker such as AAPL or BRK-B"),
      v.description("US stock ticker (required)"),
    ),
  }),
  output: v.object({
    ticker: v.string(),
    cik: v.pipe(v.string(), v.description("10-digit SEC CIK")),
    name: v.string(),
    metrics: v.array(Metric),
    netMarginPercent: v.nullable(
      v.pipe(
        v.string(),
        v.description("Net income / revenue of the latest fiscal year, when both cover the same period"),
      ),
    ),
    url: v.string(),
  }),
  example: {
    input: { ticker: "AAPL" },
    output: {
      ticker: "AAPL",
      cik: "0000320193",
      name: "Apple Inc.",
      metrics: [
        {
          name: "revenue",
          concept: "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
          unit: "USD",
          value: "391035000000",
          periodStart: "2023-10-01",
          periodEnd: "2024-09-28",
          form: "10-K",
          filed: "2024-11-01",
          previousValue: "383285000000",
          changePercent: "2.022",
        },
      ],
      netMarginPercent: "23.9713",
      url: "https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000320193",
    },
  },
  cacheTtl: 21_600,
  upstreams: [SEC_FILES, SEC_DATA],
  async handler({ input, upstream }) {
    const ticker = input.ticker.toUpperCase();
    const tickers = await upstream(SEC_FILES).json("/company_tickers.json", Tickers);
    const company = Object.values(tickers).find((c) => c.ticker === ticker);
    if (!company) throw notFound(`SEC lists no company with ticker ${ticker}`);
    const cik = String(company.cik_str).padStart(10, "0");
    const body = await upstream(SEC_DATA).json(`/api/xbrl/companyfacts/CIK${cik}.json`, CompanyFacts, {
      notFoundAs404: true,
    });
    const metrics = METRICS.flatMap((m) => {
      const factsOf = (concept: string) => series(body.facts[m.taxonomy]?.[concept]?.units[m.unit] ?? [], m.flow);
      const concept = m.concepts.find((c) => factsOf(c).length > 0);
      if (!concept) return [];
      const list = factsOf(concept);
      const [latest, previous] = [list.at(-1)!, list.at(-2)];
      return [
        {
          name: m.name,
          concept: `${m.taxonomy}:${concept}`,
          unit: m.unit,
          value: String(latest.val),
          periodStart: latest.start ?? null,
          periodEnd: latest.end,
          form: latest.form,
          filed: latest.filed,
          previousValue: previous ? String(previous.val) : null,
          changePercent:
            previous && previous.val !== 0
              ? fixed(new Decimal(latest.val).minus(previous.val).dividedBy(Math.abs(previous.val)).times(100), 4)
              : null,
        },
      ];
    });
    const revenue = metrics.find((m) => m.name === "revenue");
    const income = metrics.find((m) => m.name === "netIncome");
    const sameYear = revenue && income && revenue.periodEnd === income.periodEnd && revenue.value !== "0";
    return {
      ticker,
      cik,
      name: body.entityName ?? company.title,
      metrics,
      netMarginPercent: sameYear ? fixed(new Decimal(income.value).dividedBy(revenue.value).times(100), 4) : null,
      url: `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${cik}`,
    };
  },
});
