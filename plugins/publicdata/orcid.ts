import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

/** What the code reads of an ORCID v3.0 record (`/{id}/record`). */
const Value = v.nullable(v.object({ value: v.string() }));
const FuzzyDate = v.nullable(v.object({ year: Value, month: v.optional(Value), day: v.optional(Value) }));
type FuzzyDate = v.InferOutput<typeof FuzzyDate>;
const Affiliation = v.object({
  "department-name": v.nullable(v.string()),
  "role-title": v.nullable(v.string()),
  "start-date": FuzzyDate,
  "end-date": FuzzyDate,
  organization: v.object({
    name: v.string(),
    address: v.nullable(v.object({ city: v.nullable(v.string()), country: v.nullable(v.string()) })),
  }),
});
const ExternalId = v.object({
  "external-id-type": v.string(),
  "external-id-value": v.string(),
  "external-id-url": v.optional(Value),
});
type ExternalId = v.InferOutput<typeof ExternalId>;
const WorkSummary = v.object({
  title: v.nullable(v.object({ title: Value })),
  type: v.string(),
  "publication-date": FuzzyDate,
  "journal-title": v.optional(Value),
  "external-ids": v.nullable(v.object({ "external-id": v.array(ExternalId) })),
  url: v.optional(Value),
});
type WorkSummary = v.InferOutput<typeof WorkSummary>;
/** Each group has at least one summary (the code reads the first). */
const Groups = <K extends string>(kind: K) =>
  v.nullable(
    v.object({
      "affiliation-group": v.array(
        v.object({
          summaries: v.pipe(
            v.array(v.object({ [kind]: Affiliation } as Record<K, typeof Affiliation>)),
            v.minLength(1),
          ),
        }),
      ),
    }),
  );
type Groups<K extends string> = v.InferOutput<ReturnType<typeof Groups<K>>>;
const OrcidRecord = v.object({
  "orcid-identifier": v.object({ uri: v.string(), path: v.string() }),
  person: v.object({
    name: v.nullable(v.object({ "given-names": Value, "family-name": Value, "credit-name": Value })),
    "other-names": v.nullable(v.object({ "other-name": v.array(v.object({ content: v.string() })) })),
    biography: v.nullable(v.object({ content: v.string() })),
    "researcher-urls": v.nullable(
      v.object({ "researcher-url": v.array(v.object({ "url-name": v.nullable(v.string()), url: Value })) }),
    ),
    keywords: v.nullable(v.object({ keyword: v.array(v.object({ content: v.string() })) })),
    "external-identifiers": v.nullable(v.object({ "external-identifier": v.array(ExternalId) })),
    addresses: v.nullable(v.object({ address: v.array(v.object({ country: Value })) })),
  }),
  "activities-summary": v.object({
    employments: Groups("employment-summary"),
    educations: Groups("education-summary"),
    works: v.nullable(
      v.object({ group: v.array(v.object({ "work-summary": v.pipe(v.array(WorkSummary), v.minLength(1)) })) }),
    ),
  }),
});

const text = v.nullable(v.string());
const Affiliated = v.object({
  organization: v.string(),
  department: text,
  role: text,
  start: v.pipe(text, v.description("YYYY, YYYY-MM or YYYY-MM-DD")),
  end: v.pipe(text, v.description("Null while ongoing")),
  city: text,
  country: v.pipe(text, v.description("ISO 3166 alpha-2")),
});

export default defineEndpoint({
  name: "orcid",
  method: "GET",
  price: "$0.005",
  summary: "ORCID researcher profile: name, biography, employment, education, identifiers and works with DOIs",
  description:
    "From the ORCID Public API v3.0 (public data only). The id's check digit (ISO 7064 MOD 11-2) is verified before any call: a wrong one " +
    "is a 400, an id ORCID does not have a 404. Works are ORCID's de-duplicated groups, in ORCID's order (newest first).",
  input: v.object({
    id: v.pipe(
      v.string(),
      v.regex(/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/, "not an ORCID iD (0000-0002-1825-0097)"),
      v.description("ORCID iD, e.g. 0000-0002-1825-0097"),
    ),
    works: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100), v.description("Most works listed")),
      20,
    ),
  }),
  output: v.object({
    id: v.string(),
    url: v.string(),
    name: v.pipe(text, v.description("Given and family names")),
    creditName: v.pipe(text, v.description("The name the researcher publishes under")),
    otherNames: v.array(v.string()),
    biography: text,
    keywords: v.array(v.string()),
    countries: v.array(v.string()),
    links: v.array(v.object({ name: text, url: v.string() })),
    externalIds: v.array(v.object({ type: v.string(), value: v.string(), url: text })),
    employments: v.array(Affiliated),
    educations: v.array(Affiliated),
    worksCount: v.number(),
    works: v.array(v.object({ title: text, type: v.string(), year: text, journal: text, doi: text, url: text })),
  }),
  example: {
    input: { id: "0000-0002-1825-0097", works: 1 },
    output: {
      id: "0000-0002-1825-0097",
      url: "https://orcid.org/0000-0002-1825-0097",
      name: "Josiah Carberry",
      creditName: "Josiah Stinkney Carberry",
      otherNames: ["J. Carberry", "J. S. Carberry"],
      biography:
        "Josiah Carberry is a fictitious person. This account is used as a demonstration account by ORCID, CrossRef and others.",
      keywords: ["psychoceramics"],
      countries: ["US"],
      links: [{ name: "Brown University Page", url: "http://library.brown.edu/about/hay/carberry.php" }],
      externalIds: [
        {
          type: "Scopus Author ID",
          value: "7007156898",
          url: "http://www.scopus.com/inward/authorDetails.url?authorID=7007156898&partnerID=MN8TOARS",
        },
      ],
      employments: [
        {
          organization: "Brown University",
          department: "Psychoceramics",
          role: "Professor",
          start: "1989-09",
          end: null,
          city: "Providence",
          country: "US",
        },
      ],
      educations: [
        {
          organization: "Wesleyan University",
          department: "Psychoceramics",
          role: "PhD",
          start: "1979",
          end: "1984",
          city: "Middletown",
          country: "US",
        },
      ],
      worksCount: 2,
      works: [
        {
          title: "Toward a Unified Theory of High-Energy Metaphysics: Silly String Theory",
          type: "journal-article",
          year: "2008",
          journal: "Journal of Psychoceramics",
          doi: "10.5555/12345678",
          url: "https://doi.org/10.5555/12345678",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["orcid"],
  async handler({ input, upstream }) {
    if (!checksumHolds(input.id))
      throw badRequest("the ORCID iD's check digit is wrong", {
        issues: [{ field: "id", message: "check digit does not match" }],
      });
    const record = await upstream("orcid").json(`/${input.id}/record`, OrcidRecord, { notFoundAs404: true });
    const person = record.person;
    const activities = record["activities-summary"];
    const works = activities.works?.group ?? [];
    return {
      id: record["orcid-identifier"].path,
      url: record["orcid-identifier"].uri,
      name:
        [person.name?.["given-names"]?.value, person.name?.["family-name"]?.value].filter(Boolean).join(" ") || null,
      creditName: person.name?.["credit-name"]?.value ?? null,
      otherNames: person["other-names"]?.["other-name"].map((n) => n.content) ?? [],
      biography: person.biography?.content ?? null,
      keywords: person.keywords?.keyword.map((k) => k.content) ?? [],
      countries: person.addresses?.address.flatMap((a) => (a.country ? [a.country.value] : [])) ?? [],
      links:
        person["researcher-urls"]?.["researcher-url"].flatMap((u) =>
          u.url ? [{ name: u["url-name"], url: u.url.value }] : [],
        ) ?? [],
      externalIds: (person["external-identifiers"]?.["external-identifier"] ?? []).map(externalIdOf),
      employments: affiliationsOf(activities.employments, "employment-summary"),
      educations: affiliationsOf(activities.educations, "education-summary"),
      worksCount: works.length,
      works: works.slice(0, input.works).map((group) => workOf(group["work-summary"][0])),
    };
  },
});

/** ISO 7064 MOD 11-2 over the first 15 digits. */
function checksumHolds(id: string): boolean {
  const digits = id.replaceAll("-", "");
  let total = 0;
  for (const digit of digits.slice(0, 15)) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  return digits[15] === (check === 10 ? "X" : String(check));
}

const externalIdOf = (e: ExternalId) => ({
  type: e["external-id-type"],
  value: e["external-id-value"],
  url: e["external-id-url"]?.value ?? null,
});

function dateOf(date: FuzzyDate | null): string | null {
  if (!date?.year) return null;
  return [date.year.value, date.month?.value, date.month && date.day?.value].filter(Boolean).join("-");
}

function affiliationsOf<K extends string>(groups: Groups<K>, kind: K) {
  return (groups?.["affiliation-group"] ?? []).map((group) => {
    const a = group.summaries[0][kind];
    return {
      organization: a.organization.name,
      department: a["department-name"],
      role: a["role-title"],
      start: dateOf(a["start-date"]),
      end: dateOf(a["end-date"]),
      city: a.organization.address?.city ?? null,
      country: a.organization.address?.country ?? null,
    };
  });
}

function workOf(w: WorkSummary) {
  const doi =
    w["external-ids"]?.["external-id"].find((e) => e["external-id-type"] === "doi")?.["external-id-value"] ?? null;
  return {
    title: w.title?.title?.value ?? null,
    type: w.type,
    year: w["publication-date"]?.year?.value ?? null,
    journal: w["journal-title"]?.value ?? null,
    doi,
    url: w.url?.value ?? (doi ? `https://doi.org/${doi}` : null),
  };
}
