import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

const list = v.array(v.string());
/**
 * What the code reads of MetaMask's eth-phishing-detect config (src/config.json): exact lists plus look-alike targets.
 * The lists are named whitelist and blacklist (allowlist and blocklist in some versions): one of each must come.
 */
const PhishingConfig = v.union([
  v.object({ tolerance: v.optional(v.number()), fuzzylist: v.optional(list), whitelist: list, blacklist: list }),
  v.object({ tolerance: v.optional(v.number()), fuzzylist: v.optional(list), allowlist: list, blocklist: list }),
]);

export interface PhishingList {
  tolerance: number;
  allowed: Set<string>;
  blocked: Set<string>;
  lookAlikeTargets: string[];
  fetchedAt: Date;
}

const REFRESH_MS = 3_600_000;
const lists = new Map<string, Promise<PhishingList>>();

/** The list, fetched at most hourly per upstream URL and shared by every call (one download in flight at a time). */
export async function phishingList(api: Upstream, now: Date): Promise<PhishingList> {
  const cached = lists.get(api.url);
  if (cached) {
    const list = await cached.catch(() => undefined);
    if (list && now.getTime() - list.fetchedAt.getTime() < REFRESH_MS) return list;
    if (lists.get(api.url) !== cached) return phishingList(api, now);
  }
  const loading = api.json("/src/config.json", PhishingConfig).then((config) => ({
    tolerance: config.tolerance ?? 1,
    allowed: new Set(("whitelist" in config ? config.whitelist : config.allowlist).map((d) => d.toLowerCase())),
    blocked: new Set(("blacklist" in config ? config.blacklist : config.blocklist).map((d) => d.toLowerCase())),
    lookAlikeTargets: (config.fuzzylist ?? []).map((d) => d.toLowerCase()),
    fetchedAt: now,
  }));
  lists.set(api.url, loading);
  loading.catch(() => lists.get(api.url) === loading && lists.delete(api.url));
  return loading;
}

export type Verdict =
  | { matchType: "whitelist" | "blacklist"; match: string; similarTo: null; distance: null }
  | { matchType: "fuzzy"; match: string; similarTo: string; distance: number }
  | { matchType: null; match: null; similarTo: null; distance: null };

/** eth-phishing-detect's order: an allowed domain (or parent) wins, then a blocked one, then a look-alike of a target's root. */
export function checkDomain(list: PhishingList, hostname: string): Verdict {
  const parts = hostname.toLowerCase().replace(/\.$/, "").split(".");
  const suffixes = parts.map((_, i) => parts.slice(i).join(".")).filter((s) => s.includes("."));
  const allowed = suffixes.find((s) => list.allowed.has(s));
  if (allowed) return { matchType: "whitelist", match: allowed, similarTo: null, distance: null };
  const blocked = suffixes.find((s) => list.blocked.has(s));
  if (blocked) return { matchType: "blacklist", match: blocked, similarTo: null, distance: null };
  const root = parts.slice(-2).join(".");
  for (const target of list.lookAlikeTargets) {
    const distance = levenshtein(root, target.split(".").slice(-2).join("."));
    if (distance <= list.tolerance) return { matchType: "fuzzy", match: root, similarTo: target, distance };
  }
  return { matchType: null, match: null, similarTo: null, distance: null };
}

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.abs(a.length - b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
