import { isPlainObject, toPointer } from "./_json.ts";

export interface JsonDiff {
  added: { path: string; value: unknown }[];
  removed: { path: string; value: unknown }[];
  changed: { path: string; from: unknown; to: unknown }[];
  counts: { added: number; removed: number; changed: number };
  /** Share of leaf values (scalars, empty containers) that are the same in both, 0 to 1. */
  similarity: number;
}

/**
 * Structural difference: objects by key, arrays by index. A value whose kind changes (object to array,
 * number to string) is one change at its path. At most `limit` entries are listed per kind; counts are complete.
 */
export function diffJson(a: unknown, b: unknown, limit: number): JsonDiff {
  const diff: JsonDiff = {
    added: [],
    removed: [],
    changed: [],
    counts: { added: 0, removed: 0, changed: 0 },
    similarity: 1,
  };
  let sameLeaves = 0;
  let differentLeaves = 0;

  const walk = (x: unknown, y: unknown, path: (string | number)[]) => {
    const pairs = childPairs(x, y);
    if (!pairs) {
      if (x === y) return void sameLeaves++;
      differentLeaves += Math.max(leafCount(x), leafCount(y));
      if (diff.counts.changed++ < limit) diff.changed.push({ path: toPointer(path), from: x, to: y });
      return;
    }
    if (pairs.length === 0) return void sameLeaves++;
    for (const [key, inX, inY] of pairs) {
      const here = [...path, key];
      if (inX && inY) walk((x as any)[key], (y as any)[key], here);
      else if (inX) {
        differentLeaves += leafCount((x as any)[key]);
        if (diff.counts.removed++ < limit) diff.removed.push({ path: toPointer(here), value: (x as any)[key] });
      } else {
        differentLeaves += leafCount((y as any)[key]);
        if (diff.counts.added++ < limit) diff.added.push({ path: toPointer(here), value: (y as any)[key] });
      }
    }
  };

  walk(a, b, []);
  const total = sameLeaves + differentLeaves;
  diff.similarity = total === 0 ? 1 : round(sameLeaves / total);
  return diff;
}

/** Keys of two containers of the same kind, each with where it occurs; undefined when not both containers of one kind. */
function childPairs(x: unknown, y: unknown): [string | number, boolean, boolean][] | undefined {
  if (Array.isArray(x) && Array.isArray(y)) {
    return Array.from({ length: Math.max(x.length, y.length) }, (_, i) => [i, i < x.length, i < y.length]);
  }
  if (isPlainObject(x) && isPlainObject(y)) {
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    return [...keys].map((key) => [key, Object.hasOwn(x, key), Object.hasOwn(y, key)]);
  }
  return undefined;
}

function leafCount(value: unknown): number {
  if (value === null || typeof value !== "object") return 1;
  const children = Object.values(value);
  return children.length ? children.reduce((sum: number, child) => sum + leafCount(child), 0) : 1;
}

export const round = (x: number) => Math.round(x * 10_000) / 10_000;
