import type { ListedEntry } from "./_list-parsers.ts";
import { nameKey, nameSimilarity, normalizeAddress, tokensOf } from "./_names.ts";

interface IndexedName {
  entry: number;
  name: string;
  primary: boolean;
  tokens: string[];
  key: string;
}

export interface ListIndex {
  entries: ListedEntry[];
  names: IndexedName[];
  /** Normalized digital-currency address -> entry positions. */
  addresses: Map<string, number[]>;
}

export function buildIndex(entries: ListedEntry[]): ListIndex {
  const names: IndexedName[] = [];
  const addresses = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    entry.names.forEach((name, n) => {
      const tokens = tokensOf(name);
      if (tokens.length) names.push({ entry: i, name, primary: n === 0, tokens, key: nameKey(tokens) });
    });
    for (const { address } of entry.addresses) {
      const key = normalizeAddress(address);
      addresses.set(key, [...(addresses.get(key) ?? []), i]);
    }
  });
  return { entries, names, addresses };
}

export interface Hit {
  entry: ListedEntry;
  matchedField: "name" | "alias" | "address";
  matchedValue: string;
  score: number;
}

/** Names scoring at least `minScore`, best name per entry; strict keeps only exact normalized names. */
export function searchName(index: ListIndex, name: string, strict: boolean, minScore: number): Hit[] {
  const query = tokensOf(name);
  const key = nameKey(query);
  const best = new Map<number, Hit>();
  for (const candidate of index.names) {
    const score = candidate.key === key ? 1 : strict ? 0 : nameSimilarity(query, candidate.tokens);
    if (score < minScore || (best.get(candidate.entry)?.score ?? -1) >= score) continue;
    best.set(candidate.entry, {
      entry: index.entries[candidate.entry],
      matchedField: candidate.primary ? "name" : "alias",
      matchedValue: candidate.name,
      score: Math.round(score * 1000) / 1000,
    });
  }
  return [...best.values()];
}

/** Addresses match exactly (case-insensitive where the address format is). */
export function searchAddress(index: ListIndex, address: string): Hit[] {
  const key = normalizeAddress(address);
  return (index.addresses.get(key) ?? []).map((i) => {
    const entry = index.entries[i];
    const listed = entry.addresses.find((a) => normalizeAddress(a.address) === key)!;
    return { entry, matchedField: "address" as const, matchedValue: listed.address, score: 1 };
  });
}
