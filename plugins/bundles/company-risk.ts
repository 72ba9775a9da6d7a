import * as v from "valibot";
import { defineBundle, skip } from "./_compose.ts";
import { figure, Level } from "./_digest.ts";
import {
  bestRecord,
  LEI_CANDIDATES,
  DomainInput,
  LeiDigest,
  leiDigest,
  NameInput,
  Reasons,
  TickerInput,
  type SanctionsData,
  type WhoisData,
} from "./_entity.ts";
import { examples } from "./_examples.ts";

/** A domain younger than this is a classic sign of a hastily set-up front. */
const YOUNG_DOMAIN_DAYS = 365;
/** GLEIF registrations not in good standing. */
const BAD_LEI = ["LAPSED", "RETIRED", "ANNULLED", "MERGED", "DUPLICATE"];

export default defineBundle({
  name: "company-risk",
  price: "$0.03",
  summary:
    "Company risk profile: sanctions screening, LEI record and status, SEC financials if US-listed, domain age and TLS, known exploited vulnerabilities in its products",
  description:
    "Composes sanctions (the name), gleif (the name), kev (the name as vendor) and, when given, sec-metrics (ticker), whois and ssl-check (domain). " +
    `The level is high with any sanctions match; medium with a lapsed or retired LEI, no LEI record close to the name (similarity under 0.85), a domain younger than ${YOUNG_DOMAIN_DAYS} days, an invalid certificate or known exploited vulnerabilities in its products; else low.`,
  input: v.object({ name: NameInput, ticker: v.optional(TickerInput), domain: v.optional(DomainInput) }),
  parts: { sanctions: "sanctions", lei: "gleif", sec: "sec-metrics", whois: "whois", tls: "ssl-check", kev: "kev" },
  plan({ name, ticker, domain }) {
    const noDomain = skip("pass domain for the website checks");
    return {
      sanctions: { name },
      lei: { q: name, limit: LEI_CANDIDATES },
      sec: ticker ? { ticker } : skip("pass ticker (US-listed companies) for SEC filings"),
      whois: domain ? { domain } : noDomain,
      tls: domain ? { host: domain } : noDomain,
      kev: { vendor: name, limit: 10 },
    };
  },
  digest: v.object({
    level: Level,
    reasons: Reasons,
    sanctionsHits: figure("Matches on the sanctions lists (null when screening failed)"),
    lei: LeiDigest,
    domainAgeDays: figure("Age of the domain's registration, days"),
    tlsValid: v.pipe(v.nullable(v.boolean()), v.description("The site's certificate is valid and trusted")),
    exploitedVulnerabilities: figure("CISA KEV entries naming the company as vendor"),
  }),
  summarize(data, { name }) {
    const sanctions = data.sanctions as SanctionsData | undefined;
    const record = data.lei ? bestRecord(data.lei, name) : null;
    const whois = data.whois as WhoisData | undefined;
    const tls = data.tls as { valid?: boolean } | undefined;
    const kev = (data.kev as { total?: number } | undefined)?.total ?? null;
    const high: string[] = [];
    const medium: string[] = [];
    if (sanctions?.hits) high.push(`${sanctions.hits} sanctions list matches`);
    if (data.lei && (!record || record.similarity < 0.85)) medium.push("no LEI record matches the name");
    if (record && BAD_LEI.includes(record.registrationStatus ?? ""))
      medium.push(`LEI registration ${record.registrationStatus}`);
    if (whois?.ageDays != null && whois.ageDays < YOUNG_DOMAIN_DAYS)
      medium.push(`domain registered ${whois.ageDays} days ago`);
    if (tls && tls.valid === false) medium.push("the site's certificate is not valid");
    if (kev) medium.push(`${kev} known exploited vulnerabilities in its products`);
    return {
      level: high.length ? ("high" as const) : medium.length ? ("medium" as const) : ("low" as const),
      reasons: [...high, ...medium],
      sanctionsHits: sanctions?.hits ?? null,
      lei: leiDigest(record && record.similarity >= 0.85 ? record : null),
      domainAgeDays: whois?.ageDays ?? null,
      tlsValid: tls?.valid ?? null,
      exploitedVulnerabilities: kev,
    };
  },
  example: examples["company-risk"],
});
