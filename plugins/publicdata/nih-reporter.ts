import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const text = v.nullable(v.string());
/** What the code reads of RePORTER's project search answer. */
const ReporterProject = v.object({
  appl_id: v.number(),
  project_num: v.string(),
  project_title: v.string(),
  abstract_text: text,
  fiscal_year: v.number(),
  award_amount: v.nullable(v.number()),
  activity_code: text,
  organization: v.nullable(v.object({ org_name: text, org_city: text, org_state: text, org_country: text })),
  principal_investigators: v.nullable(v.array(v.object({ full_name: v.string(), is_contact_pi: v.boolean() }))),
  agency_ic_admin: v.nullable(v.object({ abbreviation: v.string(), name: v.string() })),
  project_start_date: text,
  project_end_date: text,
  project_detail_url: text,
});
type ReporterProject = v.InferOutput<typeof ReporterProject>;
const ReporterAnswer = v.object({ meta: v.object({ total: v.number() }), results: v.array(ReporterProject) });

const fields = [
  "ApplId",
  "ProjectNum",
  "ProjectTitle",
  "AbstractText",
  "FiscalYear",
  "AwardAmount",
  "ActivityCode",
  "Organization",
  "PrincipalInvestigators",
  "AgencyIcAdmin",
  "ProjectStartDate",
  "ProjectEndDate",
  "ProjectDetailUrl",
];

const day = (date: string | null) => date?.slice(0, 10) ?? null;

export default defineEndpoint({
  name: "nih-reporter",
  method: "GET",
  price: "$0.01",
  summary: "NIH-funded research projects: search by text, organization, investigator, fiscal year and institute",
  description:
    "From NIH RePORTER (API v2, public data, refreshed weekly). Give at least one of q, organization or pi. Newest fiscal year first. " +
    "award is in US dollars as RePORTER gives it. No match answers an empty list.",
  input: v.object({
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(200),
        v.description("Words in the title, terms or abstract, e.g. CRISPR sickle cell"),
      ),
    ),
    organization: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(120),
        v.description("Organization name, e.g. JOHNS HOPKINS UNIVERSITY"),
      ),
    ),
    pi: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(80), v.description("Principal investigator's name, e.g. Doudna")),
    ),
    year: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1985), v.maxValue(2100), v.description("Fiscal year"))),
    agency: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2,8}$/, "not an NIH institute abbreviation"),
        v.description("Administering institute, e.g. NCI, NHLBI"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most projects returned")),
      10,
    ),
    offset: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(14_999), v.description("Projects to skip")),
      0,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Projects RePORTER matched")),
    projects: v.array(
      v.object({
        id: v.pipe(v.number(), v.description("RePORTER application id")),
        projectNumber: v.string(),
        title: v.string(),
        abstract: v.nullable(v.string()),
        fiscalYear: v.number(),
        award: v.pipe(v.nullable(v.number()), v.description("Award amount in US dollars")),
        activityCode: v.pipe(v.nullable(v.string()), v.description("Grant mechanism, e.g. R01")),
        organization: v.nullable(v.string()),
        city: v.nullable(v.string()),
        state: v.nullable(v.string()),
        country: v.nullable(v.string()),
        investigators: v.pipe(v.array(v.string()), v.description("Contact PI first")),
        institute: v.nullable(v.object({ code: v.string(), name: v.string() })),
        start: v.pipe(v.nullable(v.string()), v.description("YYYY-MM-DD")),
        end: v.nullable(v.string()),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { q: "sickle cell CRISPR", year: 2023, limit: 1 },
    output: {
      total: 37,
      projects: [
        {
          id: 10714569,
          projectNumber: "5R01HL156647-03",
          title: "Base editing for the treatment of sickle cell disease",
          abstract: "Sickle cell disease is caused by a single point mutation in the beta-globin gene.",
          fiscalYear: 2023,
          award: 612475,
          activityCode: "R01",
          organization: "ST. JUDE CHILDREN'S RESEARCH HOSPITAL",
          city: "MEMPHIS",
          state: "TN",
          country: "UNITED STATES",
          investigators: ["MITCHELL J WEISS"],
          institute: { code: "NHLBI", name: "National Heart, Lung, and Blood Institute" },
          start: "2021-04-01",
          end: "2025-03-31",
          url: "https://reporter.nih.gov/project-details/10714569",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["nih-reporter"],
  async handler({ input, upstream }) {
    if (!input.q && !input.organization && !input.pi) throw fieldError("q", "give q, organization or pi");
    const criteria = {
      advanced_text_search: input.q
        ? { operator: "and", search_field: "projecttitle,terms,abstracttext", search_text: input.q }
        : undefined,
      org_names: input.organization ? [input.organization] : undefined,
      pi_names: input.pi ? [{ any_name: input.pi }] : undefined,
      fiscal_years: input.year ? [input.year] : undefined,
      agencies: input.agency ? [input.agency.toUpperCase()] : undefined,
    };
    const answer = await upstream("nih-reporter").json("/projects/search", ReporterAnswer, {
      method: "POST",
      body: {
        criteria,
        include_fields: fields,
        offset: input.offset,
        limit: input.limit,
        sort_field: "fiscal_year",
        sort_order: "desc",
      },
    });
    return { total: answer.meta.total, projects: answer.results.map(projectOf) };
  },
});

function projectOf(p: ReporterProject) {
  const pis = [...(p.principal_investigators ?? [])].sort((a, b) => Number(b.is_contact_pi) - Number(a.is_contact_pi));
  return {
    id: p.appl_id,
    projectNumber: p.project_num,
    title: p.project_title,
    abstract: p.abstract_text,
    fiscalYear: p.fiscal_year,
    award: p.award_amount,
    activityCode: p.activity_code,
    organization: p.organization?.org_name ?? null,
    city: p.organization?.org_city ?? null,
    state: p.organization?.org_state ?? null,
    country: p.organization?.org_country ?? null,
    investigators: pis.map((pi) => pi.full_name),
    institute: p.agency_ic_admin ? { code: p.agency_ic_admin.abbreviation, name: p.agency_ic_admin.name } : null,
    start: day(p.project_start_date),
    end: day(p.project_end_date),
    url: p.project_detail_url ?? `https://reporter.nih.gov/project-details/${p.appl_id}`,
  };
}
