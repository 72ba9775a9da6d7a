import type { Store } from "../endpoint.ts";

interface Entry {
  /** A number, string or boolean as it was given; an object or array is kept as `json` instead. */
  value: unknown;
  json?: string;
  expiresAt: number;
}

/**
 * The embedded store: one process, no persistence. Every operation completes synchronously inside its
 * promise, so claim and increment are atomic under Node's single thread. An object is kept as its JSON text, as
 * Redis keeps it: the caller's object is never shared, a read gets its own copy, and a value written and never read
 * again (most records are) costs one JSON.stringify, half of a structured clone.
 */
export function createMemoryStore(now: () => number = Date.now): Store & { clear(): void } {
  let entries = new Map<string, Entry>();
  const sets = new Map<string, Map<string, number>>();

  // A deleted key keeps its slot, marked gone, until the gone outnumber the rest: a key written and deleted on every
  // call (a channel's voucher in flight) would otherwise leave one dead entry per call in the Map's hash chain,
  // which every look-up of the absent key walks (17.6 against 0.4 µs a call in a store of 20,000 keys).
  const gone: Entry = { value: undefined, expiresAt: -Infinity };
  let goneCount = 0;
  const remove = (key: string) => {
    entries.set(key, gone);
    if (++goneCount <= 1024 || goneCount * 2 <= entries.size) return;
    const kept = new Map<string, Entry>();
    for (const [k, entry] of entries) if (entry !== gone) kept.set(k, entry);
    entries = kept;
    goneCount = 0;
  };
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined || entry === gone) return undefined;
    if (entry.expiresAt <= now()) {
      remove(key);
      return undefined;
    }
    return entry;
  };
  const holds = (key: string, value: unknown) => {
    const entry = live(key);
    return entry !== undefined && (entry.json ?? JSON.stringify(entry.value)) === JSON.stringify(value);
  };
  const put = (key: string, value: unknown, ttlMs?: number) => {
    if (entries.get(key) === gone) goneCount--;
    const expiresAt = ttlMs ? now() + ttlMs : Infinity;
    entries.set(
      key,
      typeof value === "object" && value !== null
        ? { value: undefined, json: JSON.stringify(value), expiresAt }
        : { value, expiresAt },
    );
  };

  return {
    async get<T>(key: string) {
      const entry = live(key);
      if (!entry) return undefined;
      return (entry.json === undefined ? entry.value : JSON.parse(entry.json)) as T;
    },
    async set(key, value, ttlMs) {
      put(key, value, ttlMs);
    },
    async delete(key) {
      const entry = entries.get(key);
      if (entry === undefined || entry === gone) return false;
      remove(key);
      return true;
    },
    async claim(key, value, ttlMs) {
      if (live(key)) return false;
      put(key, value, ttlMs);
      return true;
    },
    async deleteIf(key, value) {
      if (!holds(key, value)) return false;
      remove(key);
      return true;
    },
    async renewIf(key, value, ttlMs) {
      if (!holds(key, value)) return false;
      entries.get(key)!.expiresAt = now() + ttlMs;
      return true;
    },
    async increment(key, by = 1, ttlMs) {
      const entry = live(key);
      const next = (typeof entry?.value === "number" ? entry.value : 0) + by;
      if (!entry) put(key, next, ttlMs);
      else {
        entry.value = next;
        entry.json = undefined;
      }
      return next;
    },
    async take(key, amount) {
      const entry = live(key);
      if (typeof entry?.value !== "number" || entry.value < amount) return undefined;
      entry.value -= amount;
      return entry.value;
    },
    async rank(set, member, by) {
      const scores = sets.get(set) ?? sets.set(set, new Map()).get(set)!;
      const score = (scores.get(member) ?? 0) + by;
      scores.set(member, score);
      return score;
    },
    async top(set, count) {
      const scores = [...(sets.get(set) ?? [])].map(([member, score]) => ({ member, score }));
      return scores.sort((a, b) => b.score - a.score || a.member.localeCompare(b.member)).slice(0, count);
    },
    async keys(prefix) {
      return [...entries.keys()].filter((key) => key.startsWith(prefix) && live(key));
    },
    clear() {
      entries.clear();
      goneCount = 0;
      sets.clear();
    },
  };
}
