import type { ListedEntry } from "./_list-parsers.ts";
import { jaroWinkler, nameKey, normalizeAddress, tokensOf } from "./_names.ts";

interface IndexedName {
  entry: number;
  name: string;
  primary: boolean;
  /** Positions in the index's vocabulary. */
  tokens: number[];
  key: string;
}

export interface ListIndex {
  entries: ListedEntry[];
  names: IndexedName[];
  /** Every distinct word of every name, so a query compares itself with each word once. */
  vocabulary: string[];
  /** Normalized digital-currency address -> entry positions. */
  addresses: Map<string, number[]>;
}

export function buildIndex(entries: ListedEntry[]): ListIndex {
  const names: IndexedName[] = [];
  const addresses = new Map<string, number[]>();
  const words = new Map<string, number>();
  const wordId = (word: string) => words.get(word) ?? words.set(word, words.size).get(word)!;
  entries.forEach((entry, i) => {
    entry.names.forEach((name, n) => {
      const tokens = tokensOf(name);
      if (tokens.length)
        names.push({ entry: i, name, primary: n === 0, tokens: tokens.map(wordId), key: nameKey(tokens) });
    });
    for (const { address } of entry.addresses) {
      const key = normalizeAddress(address);
      addresses.set(key, [...(addresses.get(key) ?? []), i]);
    }
  });
  return { entries, names, vocabulary: [...words.keys()], addresses };
}

export interface Hit {
  entry: ListedEntry;
  matchedField: "name" | "alias" | "address";
  matchedValue: string;
  score: number;
}

/**
 * Names scoring at least `minScore`, best name per entry; strict keeps only exact normalized names. The score
 * treats names as word sets: each word of one is paired with its closest word (Jaro-Winkler) in the other, both
 * ways, and the two averages are averaged, so extra words on either side cost and word order does not. Each query
 * word is compared with each vocabulary word once.
 */
export function searchName(index: ListIndex, name: string, strict: boolean, minScore: number): Hit[] {
  const query = tokensOf(name);
  const key = nameKey(query);
  const similar = strict ? [] : index.vocabulary.map((word) => query.map((q) => jaroWinkler(q, word)));
  const similarity = (tokens: number[]) => {
    const forward = query.reduce((sum, _, q) => sum + Math.max(...tokens.map((t) => similar[t][q])), 0) / query.length;
    const backward = tokens.reduce((sum, t) => sum + Math.max(...similar[t]), 0) / tokens.length;
    return (forward + backward) / 2;
  };
  const best = new Map<number, Hit>();
  for (const candidate of index.names) {
    const score = candidate.key === key ? 1 : strict || !query.length ? 0 : similarity(candidate.tokens);
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
