import { createRequire } from "node:module";
import { lazy } from "../../core/shared.ts";

const require = createRequire(import.meta.url);

export interface ParsedAddress {
  local: string;
  domain: string;
}

const atext = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A practical RFC 5321/5322 check: a dot-atom local part of at most 64 octets and a domain of LDH labels
 * with an alphabetic (or IDNA) top-level label. Quoted local parts and address literals are not accepted
 * here; they are valid on paper and almost never deliverable.
 */
export function parseAddress(email: string): ParsedAddress | undefined {
  const at = email.lastIndexOf("@");
  if (at <= 0 || email.length > 254) return undefined;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (Buffer.byteLength(local) > 64 || !local.split(".").every((part) => atext.test(part))) return undefined;
  const labels = domain.split(".");
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => label.test(l))) return undefined;
  const tld = labels[labels.length - 1];
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return undefined;
  return { local, domain };
}

/** mailchecker's module is a 1 MB list: required on first use, not at boot. */
const disposableDomains = lazy(() => (require("mailchecker") as typeof import("mailchecker")).blacklist());

/** Whether the domain or any parent of it is on mailchecker's list of throwaway-address providers. */
export function isDisposable(domain: string): boolean {
  const labels = domain.split(".");
  return labels.some((_, i) => disposableDomains().has(labels.slice(i).join(".")));
}

const roleParts = new Set([
  "abuse",
  "admin",
  "administrator",
  "billing",
  "careers",
  "contact",
  "enquiries",
  "help",
  "hello",
  "hostmaster",
  "info",
  "jobs",
  "marketing",
  "no-reply",
  "noreply",
  "office",
  "postmaster",
  "privacy",
  "sales",
  "security",
  "support",
  "team",
  "webmaster",
]);

/** Addresses that reach a function or a team rather than a person. */
export function isRoleAccount(local: string): boolean {
  return roleParts.has(local.toLowerCase().split("+")[0]);
}

const freeProviders = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "live.com",
  "msn.com",
  "icloud.com",
  "me.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "mail.com",
  "yandex.ru",
  "mail.ru",
  "zoho.com",
  "yahoo.co.uk",
];

export function isFreeProvider(domain: string): boolean {
  return freeProviders.includes(domain);
}

/** The common provider one or two keystrokes away from `domain` (gmial.com -> gmail.com), if any. */
export function suggestDomain(domain: string): string | undefined {
  if (freeProviders.includes(domain)) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of freeProviders) {
    const distance = editDistance(domain, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Damerau-Levenshtein distance (optimal string alignment), so swapped letters count once. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
