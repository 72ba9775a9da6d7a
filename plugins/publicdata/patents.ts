import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

const o = v.optional;
/** What the code reads of the Open Data Portal's patent file wrapper search (a lookup by number answers the same envelope). */
const OdpApplication = v.object({
  applicationNumberText: v.string(),
  applicationMetaData: v.object({
    inventionTitle: o(v.string()),
    patentNumber: o(v.string()),
    filingDate: o(v.string()),
    grantDate: o(v.string()),
    applicationStatusDescriptionText: o(v.string()),
    applicationTypeLabelName: o(v.string()),
    earliestPublicationNumber: o(v.string()),
    cpcClassificationBag: o(v.array(v.string())),
    applicantBag: o(v.array(v.object({ applicantNameText: o(v.string()) }))),
    inventorBag: o(v.array(v.object({ inventorNameText: o(v.string()) }))),
    firstApplicantName: o(v.string()),
  }),
});
type OdpApplication = v.InferOutput<typeof OdpApplication>;
const OdpSearch = v.object({ count: v.number(), patentFileWrapperDataBag: o(v.array(OdpApplication)) });

const Words = v.pipe(
  v.string(),
  v.minLength(2),
  v.maxLength(120),
  v.regex(/^[A-Za-z0-9À-ÿ .,'&-]+$/, "letters, digits, spaces and . , ' & - only"),
);
const quoted = (text: string) => `"${text.replaceAll('"', "")}"`;

export default defineEndpoint({
  name: "patents",
  method: "GET",
  price: "$0.01",
  summary: "US patent applications and grants: search by words, inventor, applicant and filing date, or look one up",
  description:
    "From the USPTO Open Data Portal patent file wrapper API (needs UPSTREAM_USPTO_KEY). Covers applications filed since 2001. " +
    "`q` uses the portal's search syntax (plain words match anywhere). An application number that does not exist is a 404.",
  input: v.object({
    q: v.optional(v.pipe(Words, v.description("Words to find, e.g. solid state battery"))),
    inventor: v.optional(v.pipe(Words, v.description("Inventor name"))),
    applicant: v.optional(v.pipe(Words, v.description("Applicant or assignee name, e.g. Apple Inc."))),
    since: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Filed on or after, YYYY-MM-DD"))),
    granted: v.optional(v.pipe(v.boolean(), v.description("Only granted patents"))),
    application: v.optional(
      v.pipe(v.string(), v.regex(/^\d{8}$/, "eight digits"), v.description("One application number, e.g. 14104993")),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most results")),
      10,
    ),
  }),
  output: v.object({
    total: v.number(),
    patents: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("Application number")),
        title: v.string(),
        patentNumber: v.nullable(v.string()),
        filingDate: v.nullable(v.string()),
        grantDate: v.nullable(v.string()),
        status: v.nullable(v.string()),
        type: v.nullable(v.string()),
        publicationNumber: v.nullable(v.string()),
        applicants: v.array(v.string()),
        inventors: v.array(v.string()),
        cpc: v.pipe(v.array(v.string()), v.description("CPC classification symbols")),
        url: v.pipe(v.string(), v.description("The application in USPTO Patent Center")),
      }),
    ),
  }),
  example: {
    input: { application: "14104993" },
    output: {
      total: 1,
      patents: [
        {
          id: "14104993",
          title: "HETEROJUNCTION BIPOLAR TRANSISTOR",
          patentNumber: "9362380",
          filingDate: "2013-12-12",
          grantDate: "2016-06-07",
          status: "Patented Case",
          type: "Utility",
          publicationNumber: "US 2014-0167116 A1",
          applicants: ["STMicroelectronics S.A."],
          inventors: ["Pascal Chevalier", "Gregory Avenier", "Alain Chantre"],
          cpc: ["H01L29/66325", "H01L27/0623", "H01L29/7378"],
          url: "https://patentcenter.uspto.gov/applications/14104993",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["uspto"],
  async handler({ input, upstream }) {
    const api = upstream("uspto");
    if (input.application) {
      const found = await api.json(`/api/v1/patent/applications/${input.application}`, OdpSearch, {
        notFoundAs404: true,
      });
      return { total: found.count, patents: (found.patentFileWrapperDataBag ?? []).map(patentOf) };
    }
    const terms = [
      input.q,
      input.inventor && `applicationMetaData.inventorBag.inventorNameText:${quoted(input.inventor)}`,
      input.applicant && `applicationMetaData.applicantBag.applicantNameText:${quoted(input.applicant)}`,
      input.granted && 'applicationMetaData.applicationStatusDescriptionText:"Patented Case"',
    ].filter(Boolean);
    if (!terms.length && !input.since) {
      throw badRequest("give q, inventor, applicant, since or application", {
        issues: [{ field: "q", message: "a search term is required" }],
      });
    }
    const query = {
      q: terms.join(" AND ") || undefined,
      rangeFilters: input.since ? `applicationMetaData.filingDate ${input.since}:9999-12-31` : undefined,
      sort: "applicationMetaData.filingDate desc",
      offset: 0,
      limit: input.limit,
    };
    // The portal answers a search that matches nothing with a 404.
    const found = await api
      .json("/api/v1/patent/applications/search", OdpSearch, { query, notFoundAs404: true })
      .catch((error) => {
        if (error?.status === 404) return { count: 0, patentFileWrapperDataBag: [] };
        throw error;
      });
    return { total: found.count, patents: (found.patentFileWrapperDataBag ?? []).slice(0, input.limit).map(patentOf) };
  },
});

function patentOf(a: OdpApplication) {
  const m = a.applicationMetaData;
  const names = (bag: { [k: string]: string | undefined }[] | undefined, key: string) =>
    (bag ?? []).map((x) => x[key]?.trim()).filter((x): x is string => Boolean(x));
  const applicants = names(m.applicantBag, "applicantNameText");
  return {
    id: a.applicationNumberText,
    title: m.inventionTitle ?? "",
    patentNumber: m.patentNumber ?? null,
    filingDate: m.filingDate ?? null,
    grantDate: m.grantDate ?? null,
    status: m.applicationStatusDescriptionText ?? null,
    type: m.applicationTypeLabelName ?? null,
    publicationNumber: m.earliestPublicationNumber ?? null,
    applicants: applicants.length ? applicants : m.firstApplicantName ? [m.firstApplicantName] : [],
    inventors: names(m.inventorBag, "inventorNameText"),
    cpc: m.cpcClassificationBag ?? [],
    url: `https://patentcenter.uspto.gov/applications/${a.applicationNumberText}`,
  };
}
