import * as v from "valibot";
import { defineEndpoint, type Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

const FRED = "fred";

/** The US indicator set; `yoy` marks index series whose year-over-year change is the figure people quote. */
const SERIES = [
  { id: "CPIAUCSL", name: "Consumer price index (all items)", unit: "index 1982-84=100", yoy: true },
  { id: "CPILFESL", name: "Core CPI (less food and energy)", unit: "index 1982-84=100", yoy: true },
  { id: "PCEPI", name: "PCE price index", unit: "index 2017=100", yoy: true },
  { id: "UNRATE", name: "Unemployment rate", unit: "percent", yoy: false },
  { id: "FEDFUNDS", name: "Effective federal funds rate (monthly)", unit: "percent", yoy: false },
  { id: "DGS2", name: "2-year Treasury yield", unit: "percent", yoy: false },
  { id: "DGS10", name: "10-year Treasury yield", unit: "percent", yoy: false },
  { id: "T10Y2Y", name: "10-year minus 2-year Treasury spread", unit: "percentage points", yoy: false },
  { id: "GDPC1", name: "Real GDP", unit: "billions of chained 2017 dollars, SAAR", yoy: true },
] as const;

interface Observation {
  date: string;
  value: string;
}

/** fredgraph.csv: a header line, then `date,value` rows; "." marks a missing value. */
async function observations(api: Upstream, id: string, since: string): Promise<Observation[]> {
  const text = await api.text("/fredgraph.csv", { query: { id, cosd: since } });
  const [header, ...rows] = text.trim().split(/\r?\n/);
  if (!header?.toUpperCase().includes(id)) throw upstreamFailed(FRED, `FRED answered no ${id} column`);
  return rows
    .map((row) => row.split(","))
    .filter(
      ([date, value]) =>
        /^\d{4}-\d{2}-\d{2}$/.test(date ?? "") && value !== undefined && value !== "." && value.trim() !== "",
    )
    .map(([date, value]) => ({ date, value: value.trim() }));
}

/** The observation a year before `date` (the latest on or before it). */
function yearBefore(list: Observation[], date: string): Observation | undefined {
  const target = `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
  return list.filter((o) => o.date <= target).at(-1);
}

const Indicator = v.object({
  id: v.pipe(v.string(), v.description("FRED series id")),
  name: v.string(),
  unit: v.string(),
  date: v.pipe(v.string(), v.description("Date of the latest observation (start of its period)")),
  value: v.string(),
  previous: v.nullable(v.object({ date: v.string(), value: v.string() })),
  change: v.nullable(v.pipe(v.string(), v.description("Latest minus previous observation"))),
  yoyPercent: v.nullable(
    v.pipe(v.string(), v.description("Change against a year earlier, percent (index series only)")),
  ),
  url: v.string(),
});

export default defineEndpoint({
  name: "macro",
  method: "GET",
  price: "$0.02",
  summary:
    "US macro dashboard: CPI and core CPI, PCE inflation, unemployment, fed funds, 2 y and 10 y yields and spread, real GDP",
  description:
    "Latest observation of each FRED series with the previous one and, for index series, the year-over-year change (decimal arithmetic). " +
    "Series are read at once from FRED's CSV download; one that fails is listed under sources.missing.",
  input: v.object({}),
  output: v.object({ indicators: v.array(Indicator), sources: SourcesReport }),
  example: {
    input: {},
    output: {
      indicators: [
        {
          id: "UNRATE",
          name: "Unemployment rate",
          unit: "percent",
          date: "2024-12-01",
          value: "4.1",
          previous: { date: "2024-11-01", value: "4.2" },
          change: "-0.1",
          yoyPercent: null,
          url: "https://fred.stlouisfed.org/series/UNRATE",
        },
      ],
      sources: { answered: ["UNRATE"], missing: [{ venue: "CPIAUCSL", reason: "fred answered 500" }] },
    },
  },
  cacheTtl: 3600,
  upstreams: [FRED],
  async handler({ upstream, signal, now }) {
    const since = new Date(now().getTime() - 600 * 86_400_000).toISOString().slice(0, 10);
    const api = upstream(FRED);
    const readers = Object.fromEntries(SERIES.map((s) => [s.id, () => observations(api, s.id, since)]));
    const { values, sources } = await gatherVenues(readers, signal);
    const indicators = values.flatMap(({ venue, value: list }) => {
      const series = SERIES.find((s) => s.id === venue)!;
      const latest = list.at(-1);
      if (!latest) return [];
      const previous = list.at(-2) ?? null;
      const yearAgo = series.yoy ? yearBefore(list, latest.date) : undefined;
      return [
        {
          id: series.id,
          name: series.name,
          unit: series.unit,
          date: latest.date,
          value: latest.value,
          previous,
          change: previous ? fixed(new Decimal(latest.value).minus(previous.value), 6) : null,
          yoyPercent: yearAgo ? fixed(new Decimal(latest.value).dividedBy(yearAgo.value).minus(1).times(100), 4) : null,
          url: `https://fred.stlouisfed.org/series/${series.id}`,
        },
      ];
    });
    return { indicators, sources };
  },
});
