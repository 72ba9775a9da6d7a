import * as v from "valibot";

export const NameInput = v.pipe(
  v.string(),
  v.minLength(2),
  v.maxLength(200),
  v.description("Legal or trading name of the company"),
);
export const DomainInput = v.pipe(
  v.string(),
  v.maxLength(253),
  v.regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, "a domain such as example.com"),
  v.description("The company's web domain, e.g. example.com"),
);
export const TickerInput = v.pipe(
  v.string(),
  v.maxLength(10),
  v.regex(/^[A-Za-z][A-Za-z.-]{0,9}$/, "a US ticker such as AAPL"),
  v.description("US stock ticker, for SEC filings"),
);

// Legal forms say nothing about which company it is: "Bloomberg Finance L.P." is "Bloomberg Finance".
const LEGAL_FORMS = new Set([
  "inc",
  "incorporated",
  "ltd",
  "limited",
  "llc",
  "lp",
  "llp",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
  "gmbh",
  "ag",
  "sa",
  "sas",
  "sarl",
  "srl",
  "spa",
  "bv",
  "nv",
  "ab",
  "as",
  "oy",
  "kg",
  "se",
  "pte",
  "pty",
  "l",
  "p",
]);

/** Lower case, accents and punctuation gone, legal forms dropped: "Bloomberg Finance, L.P." -> bloomberg, finance. */
const coreWords = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !LEGAL_FORMS.has(w));

/** 0..1 similarity of two company names: the Dice coefficient of their words, legal forms ignored, order free. */
export function companyNameSimilarity(a: string, b: string): number {
  const [x, y] = [new Set(coreWords(a)), new Set(coreWords(b))];
  if (!x.size || !y.size) return 0;
  const shared = [...x].filter((w) => y.has(w)).length;
  return Math.round(((2 * shared) / (x.size + y.size)) * 100) / 100;
}

export interface GleifRecord {
  lei: string;
  legalName: string;
  entityStatus: string | null;
  registrationStatus: string | null;
  jurisdiction: string | null;
}
export interface SanctionsData {
  hits?: number;
  matches?: { list: string; name: string; score: number }[];
  lists?: { id: string; publishedAt: string | null; entries: number; stale: boolean }[];
}
export interface WhoisData {
  ageDays?: number | null;
  expires?: string | null;
  registrar?: { name: string | null } | null;
}

/** The GLEIF record closest to the name asked for (GLEIF's full-text search ranks loosely). */
export function bestRecord(data: unknown, name: string): (GleifRecord & { similarity: number }) | null {
  const records = (data as { records?: GleifRecord[] } | undefined)?.records ?? [];
  const scored = records
    .map((r) => ({ ...r, similarity: companyNameSimilarity(name, r.legalName) }))
    .sort((a, b) => b.similarity - a.similarity);
  return scored[0] ?? null;
}

export const LeiDigest = v.pipe(
  v.nullable(
    v.object({
      lei: v.string(),
      legalName: v.string(),
      entityStatus: v.nullable(v.string()),
      registrationStatus: v.nullable(v.string()),
      jurisdiction: v.nullable(v.string()),
      similarity: v.number(),
    }),
  ),
  v.description(
    "The closest GLEIF record and its name similarity to the name asked for (0..1: shared words, legal forms ignored)",
  ),
);
export const leiDigest = (r: ReturnType<typeof bestRecord>) =>
  r && {
    lei: r.lei,
    legalName: r.legalName,
    entityStatus: r.entityStatus,
    registrationStatus: r.registrationStatus,
    jurisdiction: r.jurisdiction,
    similarity: r.similarity,
  };

export const Reasons = v.pipe(v.array(v.string()), v.description("Why the level is what it is, most serious first"));

/** GLEIF's full-text search ranks the closest names first: its first two hits are compared with the name asked for. */
export const LEI_CANDIDATES = 2;
