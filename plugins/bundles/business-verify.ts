import * as v from "valibot";
import { defineBundle, skip } from "./_compose.ts";
import { figure } from "./_digest.ts";
import {
  bestRecord,
  LEI_CANDIDATES,
  companyNameSimilarity,
  DomainInput,
  LeiDigest,
  leiDigest,
  NameInput,
  TickerInput,
  type SanctionsData,
} from "./_entity.ts";
import { examples } from "./_examples.ts";

interface VatData {
  valid?: boolean;
  name?: string | null;
}
interface DomainIntelData {
  summary?: {
    domainAgeDays?: number | null;
    tlsDaysRemaining?: number | null;
    emailAuth?: { spf: boolean; dmarc: boolean };
  };
}

/** Names at least this similar (0..1, legal forms ignored) are taken as the same company. */
const SAME_NAME = 0.85;

export default defineBundle({
  name: "business-verify",
  price: "$0.10",
  summary:
    "Know-your-business check: legal entity (LEI), EU VAT registration, sanctions screen, SEC registrant, website and domain, with a cross-source consistency score",
  description:
    "Composes gleif (the LEI if given, else the name), sanctions (the name) and, when given, vat-check (vatNumber), sec-metrics (ticker) and domain-intel (domain). " +
    `Each source that names the company is compared with the name given (word overlap ${SAME_NAME} or more, legal forms ignored, counts as a match). consistency is the share of checks that passed among those that could run: LEI found and matching, LEI issued, VAT valid, VAT name matching, no sanctions match, SEC registrant, domain older than a year.`,
  input: v.object({
    name: NameInput,
    lei: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Z0-9]{18}[0-9]{2}$/, "a 20-character LEI"),
        v.description("The company's Legal Entity Identifier"),
      ),
    ),
    vatNumber: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(16),
        v.regex(/^[A-Z]{2}[0-9A-Z+*]{2,12}$/, "an EU VAT number with its country prefix, e.g. DE129273398"),
        v.description("EU VAT number with its country prefix"),
      ),
    ),
    ticker: v.optional(TickerInput),
    domain: v.optional(DomainInput),
  }),
  parts: { lei: "gleif", vat: "vat-check", sanctions: "sanctions", sec: "sec-metrics", domain: "domain-intel" },
  plan({ name, lei, vatNumber, ticker, domain }) {
    return {
      lei: { q: lei ?? name, limit: LEI_CANDIDATES },
      vat: vatNumber ? { vatNumber } : skip("pass vatNumber for the VIES check"),
      sanctions: { name },
      sec: ticker ? { ticker } : skip("pass ticker (US-listed companies) for SEC filings"),
      domain: domain ? { domain } : skip("pass domain for the website checks"),
    };
  },
  digest: v.object({
    consistency: figure("Share of the checks that could run which passed, 0..1"),
    checks: v.pipe(
      v.array(v.object({ check: v.string(), passed: v.boolean(), detail: v.string() })),
      v.description("Every check that could run"),
    ),
    lei: LeiDigest,
    vatName: v.pipe(v.nullable(v.string()), v.description("The name VIES holds for the VAT number")),
  }),
  summarize(data, { name }) {
    const record = data.lei ? bestRecord(data.lei, name) : null;
    const vat = data.vat as VatData | undefined;
    const sanctions = data.sanctions as SanctionsData | undefined;
    const site = (data.domain as DomainIntelData | undefined)?.summary;
    const checks: { check: string; passed: boolean; detail: string }[] = [];
    if (data.lei)
      checks.push({
        check: "lei-match",
        passed: (record?.similarity ?? 0) >= SAME_NAME,
        detail: record ? `${record.legalName} (similarity ${record.similarity})` : "no LEI record found",
      });
    if (record)
      checks.push({
        check: "lei-issued",
        passed: record.registrationStatus === "ISSUED",
        detail: `registration ${record.registrationStatus ?? "unknown"}`,
      });
    if (vat)
      checks.push({
        check: "vat-valid",
        passed: vat.valid === true,
        detail: vat.valid ? "valid in VIES" : "not valid in VIES",
      });
    if (vat?.name) {
      const similarity = companyNameSimilarity(name, vat.name);
      checks.push({
        check: "vat-name",
        passed: similarity >= SAME_NAME,
        detail: `${vat.name} (similarity ${similarity})`,
      });
    }
    if (sanctions)
      checks.push({ check: "sanctions-clear", passed: !sanctions.hits, detail: `${sanctions.hits ?? 0} matches` });
    if (data.sec) checks.push({ check: "sec-registrant", passed: true, detail: "SEC filings found for the ticker" });
    if (site?.domainAgeDays != null)
      checks.push({
        check: "domain-established",
        passed: site.domainAgeDays >= 365,
        detail: `registered ${site.domainAgeDays} days ago`,
      });
    return {
      consistency: checks.length
        ? Math.round((checks.filter((c) => c.passed).length / checks.length) * 100) / 100
        : null,
      checks,
      lei: leiDigest(record),
      vatName: vat?.name ?? null,
    };
  },
  example: examples["business-verify"],
});
