import * as v from "valibot";
import { defineEndpoint, type Store, type Upstream } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";

const KevEntry = v.object({
  cveID: v.string(),
  vendorProject: v.string(),
  product: v.string(),
  vulnerabilityName: v.string(),
  dateAdded: v.string(),
  shortDescription: v.string(),
  requiredAction: v.string(),
  dueDate: v.string(),
  knownRansomwareCampaignUse: v.string(),
  notes: v.string(),
  cwes: v.optional(v.array(v.string())),
});

/** What the code reads of CISA's catalog; it is checked before it is kept for 6 hours. */
const KevCatalog = v.object({
  catalogVersion: v.string(),
  dateReleased: v.string(),
  count: v.number(),
  vulnerabilities: v.array(KevEntry),
});
type KevCatalog = v.InferOutput<typeof KevCatalog>;

/** The spec refreshes the catalog every 6 hours; every query in between reads this copy. */
const catalogTtlMs = 6 * 3600 * 1000;
const catalogKey = "publicdata:kev:catalog";

async function catalogOf(store: Store, api: Upstream): Promise<KevCatalog> {
  const kept = await store.get<KevCatalog>(catalogKey);
  if (kept) return kept;
  const catalog = await api.json("/known_exploited_vulnerabilities.json", KevCatalog);
  await store.set(catalogKey, catalog, catalogTtlMs);
  return catalog;
}

const Vulnerability = v.object({
  id: v.pipe(v.string(), v.description("CVE id")),
  title: v.string(),
  vendor: v.string(),
  product: v.string(),
  description: v.string(),
  dateAdded: v.pipe(v.string(), v.description("Day CISA added it, YYYY-MM-DD")),
  dueDate: v.pipe(v.string(), v.description("Remediation deadline for US federal agencies, YYYY-MM-DD")),
  requiredAction: v.string(),
  knownRansomwareUse: v.pipe(v.boolean(), v.description("CISA knows of ransomware campaigns using it")),
  cwes: v.array(v.string()),
  notes: v.string(),
  url: v.pipe(v.string(), v.description("The CVE's NVD record")),
});

export default defineEndpoint({
  name: "kev",
  method: "GET",
  price: "$0.01",
  summary: "CISA Known Exploited Vulnerabilities: look up a CVE or filter by vendor, product, date and ransomware use",
  description:
    "From CISA's KEV catalog feed, refreshed every 6 hours. Newest additions first. A `cve` that is not in the catalog is a 404 " +
    "(it is not known to be exploited, as far as CISA says).",
  input: v.object({
    cve: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[Cc][Vv][Ee]-\d{4}-\d{4,7}$/, "not a CVE id"),
        v.description("One CVE id, e.g. CVE-2021-44228"),
      ),
    ),
    vendor: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(100),
        v.description("Part of the vendor or project name, any case"),
      ),
    ),
    product: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(100), v.description("Part of the product name, any case")),
    ),
    since: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Added on or after this day, YYYY-MM-DD"))),
    ransomware: v.optional(v.pipe(v.boolean(), v.description("Only entries with known ransomware use"))),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most entries returned")),
      20,
    ),
  }),
  output: v.object({
    catalogVersion: v.string(),
    released: v.pipe(v.string(), v.description("When CISA published this catalog version, ISO 8601")),
    catalogSize: v.number(),
    total: v.pipe(v.number(), v.description("Entries matching the filters")),
    vulnerabilities: v.array(Vulnerability),
  }),
  example: {
    input: { cve: "CVE-2021-44228" },
    output: {
      catalogVersion: "2025.01.14",
      released: "2025-01-14T18:00:29.632Z",
      catalogSize: 1238,
      total: 1,
      vulnerabilities: [
        {
          id: "CVE-2021-44228",
          title: "Apache Log4j2 Remote Code Execution Vulnerability",
          vendor: "Apache",
          product: "Log4j2",
          description:
            "Apache Log4j2 contains a vulnerability where JNDI features do not protect against attacker-controlled JNDI-related endpoints, allowing for remote code execution.",
          dateAdded: "2021-12-10",
          dueDate: "2021-12-24",
          requiredAction:
            "For all affected software assets for which updates exist, the only acceptable remediation actions are: 1) Apply updates; OR 2) remove affected assets from agency networks.",
          knownRansomwareUse: true,
          cwes: ["CWE-20", "CWE-400", "CWE-502"],
          notes: "https://nvd.nist.gov/vuln/detail/CVE-2021-44228",
          url: "https://nvd.nist.gov/vuln/detail/CVE-2021-44228",
        },
      ],
    },
  },
  cacheTtl: 600,
  upstreams: ["cisa-kev"],
  async handler({ input, upstream, store }) {
    const catalog = await catalogOf(store, upstream("cisa-kev"));
    const has = (text: string, part?: string) => part === undefined || text.toLowerCase().includes(part.toLowerCase());
    const matching = catalog.vulnerabilities
      .filter(
        (e) =>
          (!input.cve || e.cveID.toUpperCase() === input.cve.toUpperCase()) &&
          has(e.vendorProject, input.vendor) &&
          has(e.product, input.product) &&
          (!input.since || e.dateAdded >= input.since) &&
          (!input.ransomware || e.knownRansomwareCampaignUse === "Known"),
      )
      .sort((a, b) => b.dateAdded.localeCompare(a.dateAdded) || b.cveID.localeCompare(a.cveID));
    if (input.cve && !matching.length) throw notFound(`${input.cve.toUpperCase()} is not in the KEV catalog`);
    return {
      catalogVersion: catalog.catalogVersion,
      released: new Date(catalog.dateReleased).toISOString(),
      catalogSize: catalog.count,
      total: matching.length,
      vulnerabilities: matching.slice(0, input.limit).map((e) => ({
        id: e.cveID,
        title: e.vulnerabilityName,
        vendor: e.vendorProject,
        product: e.product,
        description: e.shortDescription,
        dateAdded: e.dateAdded,
        dueDate: e.dueDate,
        requiredAction: e.requiredAction,
        knownRansomwareUse: e.knownRansomwareCampaignUse === "Known",
        cwes: e.cwes ?? [],
        notes: e.notes,
        url: `https://nvd.nist.gov/vuln/detail/${e.cveID}`,
      })),
    };
  },
});
