import * as v from "valibot";

const Category = v.object({
  index: v.optional(v.union([v.record(v.string(), v.number()), v.array(v.string())])),
  label: v.optional(v.record(v.string(), v.string())),
});
/**
 * What the code reads of a JSON-stat 2.0 dataset as Eurostat publishes it (values and statuses may be sparse objects or arrays):
 * every dimension named in `id` is described and has a size.
 */
export const JsonStatDataset = v.pipe(
  v.object({
    label: v.optional(v.string()),
    updated: v.optional(v.string()),
    id: v.array(v.string()),
    size: v.array(v.number()),
    value: v.union([v.record(v.string(), v.nullable(v.number())), v.array(v.nullable(v.number()))]),
    status: v.optional(v.union([v.record(v.string(), v.string()), v.array(v.nullable(v.string()))])),
    dimension: v.record(v.string(), v.object({ label: v.optional(v.string()), category: Category })),
  }),
  v.check(
    (ds) => ds.id.every((id, i) => Object.hasOwn(ds.dimension, id) && ds.size[i] !== undefined),
    "a dimension in id is not described",
  ),
);
export type JsonStatDataset = v.InferOutput<typeof JsonStatDataset>;

export interface Observation {
  key: Record<string, string>;
  labels: Record<string, string>;
  value: number | null;
  status: string | null;
}

/** The codes of one dimension in index order. */
function codesOf(category: JsonStatDataset["dimension"][string]["category"]): string[] {
  const index = category.index;
  if (Array.isArray(index)) return index;
  if (index)
    return Object.entries(index)
      .sort((a, b) => a[1] - b[1])
      .map(([code]) => code);
  return Object.keys(category.label ?? {});
}

/** Every cell that has a value or a status, in the dataset's row-major order (the last dimension varies fastest). */
export function observationsOf(ds: JsonStatDataset): Observation[] {
  const codes = ds.id.map((dim) => codesOf(ds.dimension[dim].category));
  const cells = new Set([...Object.keys(ds.value ?? {}), ...Object.keys(ds.status ?? {})].map(Number));
  return [...cells]
    .filter((cell) => Number.isInteger(cell))
    .sort((a, b) => a - b)
    .map((cell) => {
      const key: Record<string, string> = {};
      const labels: Record<string, string> = {};
      let rest = cell;
      for (let d = ds.id.length - 1; d >= 0; d--) {
        const dim = ds.id[d];
        const code = codes[d][rest % ds.size[d]];
        rest = Math.floor(rest / ds.size[d]);
        key[dim] = code;
        labels[dim] = ds.dimension[dim].category.label?.[code] ?? code;
      }
      const value = (ds.value as Record<number, number | null>)[cell];
      const status = (ds.status as Record<number, string | null> | undefined)?.[cell];
      return { key: ordered(key, ds.id), labels: ordered(labels, ds.id), value: value ?? null, status: status ?? null };
    });
}

const ordered = (record: Record<string, string>, ids: string[]) =>
  Object.fromEntries(ids.map((id) => [id, record[id]]));
