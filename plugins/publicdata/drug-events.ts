import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fdaDay, openFda, phrase, toFdaDay } from "./_sg-openfda.ts";

const o = v.optional;
/** What the code reads of a FAERS report, and of a count bucket. */
const FaersReport = v.object({
  safetyreportid: v.string(),
  receivedate: v.string(),
  serious: o(v.string()),
  seriousnessdeath: o(v.string()),
  occurcountry: o(v.string()),
  patient: v.object({
    patientonsetage: o(v.string()),
    patientonsetageunit: o(v.string()),
    patientsex: o(v.string()),
    reaction: o(v.array(v.object({ reactionmeddrapt: v.string() }))),
    drug: o(v.array(v.object({ medicinalproduct: o(v.string()), drugcharacterization: o(v.string()) }))),
  }),
});
type FaersReport = v.InferOutput<typeof FaersReport>;
const Count = v.object({ term: v.string(), count: v.number() });

const sexes: Record<string, string> = { "0": "unknown", "1": "male", "2": "female" };
/** FAERS age units: 800 decade, 801 year, 802 month, 803 week, 804 day, 805 hour. */
const yearsPer: Record<string, number> = {
  "800": 10,
  "801": 1,
  "802": 1 / 12,
  "803": 1 / 52,
  "804": 1 / 365,
  "805": 1 / 8760,
};
const roles: Record<string, string> = { "1": "suspect", "2": "concomitant", "3": "interacting" };

export default defineEndpoint({
  name: "drug-events",
  method: "GET",
  price: "$0.05",
  summary: "FDA adverse event reports (FAERS) for a drug: the most reported reactions, or the latest reports",
  description:
    "From openFDA's drug adverse event endpoint (FAERS, public domain). The drug matches generic name, brand name or the reported product " +
    "name. view=reactions counts the most reported reactions; view=reports lists recent reports. Reports are voluntary and do not prove that " +
    "the drug caused the reaction. A drug with no reports answers total 0.",
  input: v.object({
    drug: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(80),
      v.regex(/^[A-Za-z0-9 .,'&/-]+$/, "not a drug name"),
      v.description("Generic or brand name, e.g. ibuprofen"),
    ),
    view: v.optional(
      v.pipe(v.picklist(["reactions", "reports"]), v.description("Counts of reactions, or the reports themselves")),
      "reactions",
    ),
    serious: v.optional(
      v.pipe(v.boolean(), v.description("Only serious reports (death, hospitalisation, disability, ...)")),
    ),
    since: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Received by FDA on or after, YYYY-MM-DD"))),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most reactions or reports")),
      25,
    ),
  }),
  output: v.object({
    drug: v.string(),
    total: v.pipe(v.number(), v.description("Reports matching")),
    updated: v.nullable(v.string()),
    reactions: v.array(
      v.object({ reaction: v.pipe(v.string(), v.description("MedDRA preferred term")), reports: v.number() }),
    ),
    reports: v.array(
      v.object({
        id: v.string(),
        received: v.nullable(v.string()),
        serious: v.boolean(),
        death: v.boolean(),
        country: v.nullable(v.string()),
        patient: v.object({ ageYears: v.nullable(v.number()), sex: v.string() }),
        reactions: v.array(v.string()),
        drugs: v.array(v.object({ name: v.string(), role: v.string() })),
        url: v.string(),
      }),
    ),
    note: v.string(),
  }),
  example: {
    input: { drug: "ibuprofen", limit: 3 },
    output: {
      drug: "ibuprofen",
      total: 178391,
      updated: "2025-01-07",
      reactions: [
        { reaction: "DRUG INEFFECTIVE", reports: 14373 },
        { reaction: "NAUSEA", reports: 10529 },
        { reaction: "PAIN", reports: 10102 },
      ],
      reports: [],
      note: "FAERS reports are voluntary and unverified; they do not show that the drug caused the reaction.",
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["openfda"],
  async handler({ input, upstream }) {
    const api = upstream("openfda");
    const name = phrase(input.drug.toUpperCase());
    const terms = [
      `(patient.drug.openfda.generic_name:${name} OR patient.drug.openfda.brand_name:${name} OR patient.drug.medicinalproduct:${name})`,
      input.serious && "serious:1",
      input.since && `receivedate:[${toFdaDay(input.since)} TO 29991231]`,
    ].filter(Boolean);
    const search = terms.join(" AND ");
    const reportLimit = input.view === "reports" ? input.limit : 1;
    const [listed, counted] = await Promise.all([
      openFda(api, "/drug/event.json", FaersReport, { search, sort: "receivedate:desc", limit: reportLimit }),
      input.view === "reactions"
        ? openFda(api, "/drug/event.json", Count, {
            search,
            count: "patient.reaction.reactionmeddrapt.exact",
            limit: input.limit,
          })
        : Promise.resolve({ results: [] }),
    ]);
    return {
      drug: input.drug,
      total: listed.meta?.results?.total ?? 0,
      updated: listed.meta?.last_updated ?? null,
      reactions: counted.results.map((r) => ({ reaction: r.term, reports: r.count })),
      reports: input.view === "reports" ? listed.results.map(reportOf) : [],
      note: "FAERS reports are voluntary and unverified; they do not show that the drug caused the reaction.",
    };
  },
});

function reportOf(r: FaersReport) {
  const age = Number(r.patient.patientonsetage);
  const perYear = yearsPer[r.patient.patientonsetageunit ?? ""];
  return {
    id: r.safetyreportid,
    received: fdaDay(r.receivedate),
    serious: r.serious === "1",
    death: r.seriousnessdeath === "1",
    country: r.occurcountry ?? null,
    patient: {
      ageYears:
        Number.isFinite(age) && perYear && r.patient.patientonsetage ? Math.round(age * perYear * 10) / 10 : null,
      sex: sexes[r.patient.patientsex ?? "0"] ?? "unknown",
    },
    reactions: (r.patient.reaction ?? []).map((x) => x.reactionmeddrapt),
    drugs: (r.patient.drug ?? []).map((d) => ({
      name: d.medicinalproduct ?? "",
      role: roles[d.drugcharacterization ?? ""] ?? "unknown",
    })),
    url: `https://api.fda.gov/drug/event.json?search=safetyreportid:"${r.safetyreportid}"`,
  };
}
