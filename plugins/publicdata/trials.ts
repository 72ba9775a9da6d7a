import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

const o = v.optional;
/** What the code reads of a ClinicalTrials.gov v2 study. */
const DateStruct = o(v.object({ date: o(v.string()) }));
const Study = v.object({
  protocolSection: v.object({
    identificationModule: v.object({ nctId: v.string(), briefTitle: o(v.string()), officialTitle: o(v.string()) }),
    statusModule: o(
      v.object({
        overallStatus: o(v.string()),
        startDateStruct: DateStruct,
        primaryCompletionDateStruct: DateStruct,
        completionDateStruct: DateStruct,
        lastUpdatePostDateStruct: DateStruct,
      }),
    ),
    sponsorCollaboratorsModule: o(
      v.object({ leadSponsor: o(v.object({ name: o(v.string()), class: o(v.string()) })) }),
    ),
    conditionsModule: o(v.object({ conditions: o(v.array(v.string())) })),
    designModule: o(
      v.object({
        studyType: o(v.string()),
        phases: o(v.array(v.string())),
        enrollmentInfo: o(v.object({ count: o(v.number()), type: o(v.string()) })),
      }),
    ),
    armsInterventionsModule: o(
      v.object({ interventions: o(v.array(v.object({ type: o(v.string()), name: o(v.string()) }))) }),
    ),
    contactsLocationsModule: o(v.object({ locations: o(v.array(v.unknown())) })),
  }),
});
type Study = v.InferOutput<typeof Study>;
const Studies = v.object({ studies: v.array(Study), totalCount: o(v.number()) });

const statuses = [
  "RECRUITING",
  "NOT_YET_RECRUITING",
  "ENROLLING_BY_INVITATION",
  "ACTIVE_NOT_RECRUITING",
  "COMPLETED",
  "SUSPENDED",
  "TERMINATED",
  "WITHDRAWN",
] as const;
const phases = ["EARLY_PHASE1", "PHASE1", "PHASE2", "PHASE3", "PHASE4", "NA"] as const;
const Words = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(2),
    v.maxLength(120),
    v.regex(/^[A-Za-z0-9À-ÿ .,'&/()-]+$/, `not a ${what}`),
    v.description(what),
  );
const When = v.pipe(v.nullable(v.string()), v.description("YYYY-MM or YYYY-MM-DD as registered"));

const Trial = v.object({
  id: v.pipe(v.string(), v.description("NCT number")),
  title: v.string(),
  officialTitle: v.nullable(v.string()),
  status: v.nullable(v.string()),
  phases: v.array(v.string()),
  studyType: v.nullable(v.string()),
  conditions: v.array(v.string()),
  interventions: v.array(v.object({ type: v.string(), name: v.string() })),
  sponsor: v.nullable(v.object({ name: v.string(), class: v.string() })),
  enrollment: v.nullable(v.object({ count: v.number(), type: v.string() })),
  startDate: When,
  primaryCompletionDate: When,
  completionDate: When,
  lastUpdated: When,
  sites: v.pipe(v.number(), v.description("Locations listed")),
  url: v.string(),
});

export default defineEndpoint({
  name: "trials",
  method: "GET",
  price: "$0.01",
  summary:
    "Clinical trials from ClinicalTrials.gov: search by condition, intervention, sponsor, status and phase, or look one up",
  description:
    "From the ClinicalTrials.gov API v2 (US NLM). Give any of condition, term, intervention and sponsor, with optional status and phase " +
    "filters; or `id` (an NCT number) for one study, a 404 when it does not exist.",
  input: v.object({
    condition: v.optional(Words("Condition or disease, e.g. type 2 diabetes")),
    term: v.optional(Words("Other words, anywhere in the record")),
    intervention: v.optional(Words("Drug, device or procedure, e.g. semaglutide")),
    sponsor: v.optional(Words("Lead sponsor or collaborator")),
    status: v.optional(v.pipe(v.picklist(statuses), v.description("Overall recruitment status"))),
    phase: v.optional(v.pipe(v.picklist(phases), v.description("Trial phase"))),
    id: v.optional(
      v.pipe(v.string(), v.regex(/^NCT\d{8}$/, "not an NCT number"), v.description("NCT number, e.g. NCT04368728")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most studies")),
      10,
    ),
  }),
  output: v.object({ total: v.number(), trials: v.array(Trial) }),
  example: {
    input: { id: "NCT04368728" },
    output: {
      total: 1,
      trials: [
        {
          id: "NCT04368728",
          title:
            "Study to Describe the Safety, Tolerability, Immunogenicity, and Efficacy of RNA Vaccine Candidates Against COVID-19 in Healthy Individuals",
          officialTitle:
            "A PHASE 1/2/3, PLACEBO-CONTROLLED, RANDOMIZED, OBSERVER-BLIND, DOSE-FINDING STUDY TO EVALUATE THE SAFETY, TOLERABILITY, IMMUNOGENICITY, AND EFFICACY OF SARS-COV-2 RNA VACCINE CANDIDATES AGAINST COVID-19 IN HEALTHY INDIVIDUALS",
          status: "COMPLETED",
          phases: ["PHASE2", "PHASE3"],
          studyType: "INTERVENTIONAL",
          conditions: ["SARS-CoV-2 Infection", "COVID-19"],
          interventions: [
            { type: "BIOLOGICAL", name: "BNT162b2" },
            { type: "OTHER", name: "Placebo" },
          ],
          sponsor: { name: "BioNTech SE", class: "INDUSTRY" },
          enrollment: { count: 47079, type: "ACTUAL" },
          startDate: "2020-04-29",
          primaryCompletionDate: "2021-11-13",
          completionDate: "2023-02-10",
          lastUpdated: "2024-02-26",
          sites: 2,
          url: "https://clinicaltrials.gov/study/NCT04368728",
        },
      ],
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["clinicaltrials"],
  async handler({ input, upstream }) {
    const api = upstream("clinicaltrials");
    if (input.id) {
      const study = await api.json(`/studies/${input.id}`, Study, { notFoundAs404: true });
      return { total: 1, trials: [trialOf(study)] };
    }
    const answer = await api.json("/studies", Studies, {
      query: {
        "query.cond": input.condition,
        "query.term": input.term,
        "query.intr": input.intervention,
        "query.spons": input.sponsor,
        "filter.overallStatus": input.status,
        "filter.advanced": input.phase ? `AREA[Phase]${input.phase}` : undefined,
        pageSize: input.limit,
        countTotal: true,
      },
    });
    return { total: answer.totalCount ?? answer.studies.length, trials: answer.studies.map(trialOf) };
  },
});

function trialOf({ protocolSection: p }: Study) {
  const id = p.identificationModule.nctId;
  const sponsor = p.sponsorCollaboratorsModule?.leadSponsor;
  const enrollment = p.designModule?.enrollmentInfo;
  return {
    id,
    title: p.identificationModule.briefTitle ?? p.identificationModule.officialTitle ?? id,
    officialTitle: p.identificationModule.officialTitle ?? null,
    status: p.statusModule?.overallStatus ?? null,
    phases: p.designModule?.phases ?? [],
    studyType: p.designModule?.studyType ?? null,
    conditions: p.conditionsModule?.conditions ?? [],
    interventions: (p.armsInterventionsModule?.interventions ?? []).map((i) => ({
      type: i.type ?? "OTHER",
      name: i.name ?? "",
    })),
    sponsor: sponsor?.name ? { name: sponsor.name, class: sponsor.class ?? "UNKNOWN" } : null,
    enrollment:
      enrollment?.count !== undefined ? { count: enrollment.count, type: enrollment.type ?? "UNKNOWN" } : null,
    startDate: p.statusModule?.startDateStruct?.date ?? null,
    primaryCompletionDate: p.statusModule?.primaryCompletionDateStruct?.date ?? null,
    completionDate: p.statusModule?.completionDateStruct?.date ?? null,
    lastUpdated: p.statusModule?.lastUpdatePostDateStruct?.date ?? null,
    sites: p.contactsLocationsModule?.locations?.length ?? 0,
    url: `https://clinicaltrials.gov/study/${id}`,
  };
}
