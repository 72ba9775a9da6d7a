import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

const SEC_EFTS = "sec-efts";
const FORMS = ["S-1", "F-1", "424B4"];
/** EFTS answers 100 hits a page and, being Elasticsearch, none past the 10,000th. */
const PAGE = 100;
const MAX_HITS = 10_000;

/** One hit of EDGAR full-text search: a document of a filing (a filing with exhibits comes back once per document). */
const o = v.optional;
const EftsHit = v.object({
  _id: v.string(),
  _source: v.object({
    adsh: v.string(),
    ciks: v.array(v.string()),
    display_names: v.array(v.string()),
    form: v.string(),
    file_date: v.string(),
    biz_locations: o(v.array(v.string())),
    inc_states: o(v.array(v.string())),
  }),
});
type EftsHit = v.InferOutput<typeof EftsHit>;
const EftsPage = v.object({
  hits: v.object({ total: v.object({ value: v.number(), relation: v.string() }), hits: v.array(EftsHit) }),
});

const Filing = v.object({
  company: v.string(),
  tickers: v.pipe(v.array(v.string()), v.description("Tickers EDGAR knows for the filer (often none before listing)")),
  cik: v.pipe(v.string(), v.description("10-digit SEC CIK")),
  form: v.pipe(v.string(), v.description("S-1 or F-1 (registration, /A for amendments) or 424B4 (final prospectus)")),
  stage: v.pipe(
    v.picklist(["registered", "priced"]),
    v.description("registered: registration statement filed; priced: final prospectus with the offer price filed"),
  ),
  filed: v.pipe(v.string(), v.description("Filing date, YYYY-MM-DD")),
  accession: v.string(),
  location: v.pipe(v.nullable(v.string()), v.description("Business address city and state, as EDGAR lists it")),
  incorporatedIn: v.nullable(v.string()),
  url: v.pipe(v.string(), v.description("The filing's index page on sec.gov")),
});

/** "Acme Corp  (ACME, ACMEW)  (CIK 0001234567)" -> name and tickers. */
function parseDisplayName(display: string): { company: string; tickers: string[] } {
  const tickers =
    /\(([A-Z0-9., -]+)\)\s+\(CIK \d+\)/
      .exec(display)?.[1]
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean) ?? [];
  return { company: display.replace(/\s*\((?:CIK \d+|[A-Z0-9., -]+)\)/g, "").trim(), tickers };
}

export default defineEndpoint({
  name: "ipos",
  method: "GET",
  price: "$0.01",
  summary: "Recent US IPO filings from SEC EDGAR: S-1 and F-1 registrations and 424B4 final prospectuses, newest first",
  description:
    "EDGAR full-text search for S-1, F-1 (and their amendments) and 424B4 filings over the last `days`, one row per filing, newest first. " +
    "A 424B4 means the offering priced; an S-1/F-1 means a company registered shares, usually for an IPO but also for resale or follow-on offerings. " +
    "Every page of EDGAR's search answer is read (`complete` says whether it all fit in its 10,000-hit window). " +
    "Offer prices and share counts are inside the documents (open url); EDGAR's search index does not carry them. Public domain data.",
  input: v.object({
    days: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(90), v.description("Look-back window in days, 1-90")),
      30,
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Filings to return, 1-100")),
      25,
    ),
  }),
  output: v.object({
    filings: v.array(Filing),
    from: v.string(),
    to: v.string(),
    complete: v.pipe(
      v.boolean(),
      v.description("Every matching document was read; false past EDGAR's 10,000-hit search window"),
    ),
  }),
  example: {
    input: { days: 30, limit: 1 },
    output: {
      filings: [
        {
          company: "Figma, Inc.",
          tickers: ["FIG"],
          cik: "0001579878",
          form: "424B4",
          stage: "priced",
          filed: "2025-08-01",
          accession: "0001193125-25-170214",
          location: "San Francisco, CA",
          incorporatedIn: "DE",
          url: "https://www.sec.gov/Archives/edgar/data/1579878/000119312525170214/0001193125-25-170214-index.htm",
        },
      ],
      from: "2025-07-19",
      to: "2025-08-18",
      complete: true,
    },
  },
  cacheTtl: 3600,
  upstreams: [SEC_EFTS],
  async handler({ input, upstream, now }) {
    const to = now().toISOString().slice(0, 10);
    const from = new Date(now().getTime() - input.days * 86_400_000).toISOString().slice(0, 10);
    // EFTS ranks by relevance, not date: the newest filings can be on any page, so every page is read, one at a time (SEC asks for at most 10 requests a second).
    const hits: EftsHit[] = [];
    let complete = false;
    while (hits.length < MAX_HITS) {
      const page = await upstream(SEC_EFTS).json("/LATEST/search-index", EftsPage, {
        query: {
          q: "",
          forms: FORMS.join(","),
          dateRange: "custom",
          startdt: from,
          enddt: to,
          from: hits.length ? hits.length : undefined,
        },
      });
      hits.push(...page.hits.hits);
      if (page.hits.hits.length < PAGE || hits.length >= page.hits.total.value) {
        complete = page.hits.total.relation === "eq" || page.hits.hits.length < PAGE;
        break;
      }
    }
    const byFiling = new Map<string, EftsHit["_source"]>();
    for (const hit of hits) {
      const adsh = hit._source.adsh;
      if (!byFiling.has(adsh)) byFiling.set(adsh, { ...hit._source, adsh });
    }
    const filings = [...byFiling.values()].map((s) => {
      const cik = (s.ciks?.[0] ?? "").padStart(10, "0");
      return {
        ...parseDisplayName(s.display_names?.[0] ?? ""),
        cik,
        form: s.form,
        stage: /^424B/.test(s.form) ? ("priced" as const) : ("registered" as const),
        filed: s.file_date,
        accession: s.adsh,
        location: s.biz_locations?.[0] ?? null,
        incorporatedIn: s.inc_states?.[0] ?? null,
        url: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${s.adsh.replace(/-/g, "")}/${s.adsh}-index.htm`,
      };
    });
    filings.sort((a, b) => b.filed.localeCompare(a.filed) || b.accession.localeCompare(a.accession));
    return { filings: filings.slice(0, input.limit), from, to, complete };
  },
});
