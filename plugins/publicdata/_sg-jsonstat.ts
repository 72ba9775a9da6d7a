/** A JSON-stat 2.0 dataset as Eurostat publishes it (values and statuses may be sparse objects or arrays). */
export interface JsonStatDataset {
  label?: string;
  source?: string;
  updated?: string;
  id: string[];
  size: number[];
  value: Record<string, number | null> | (number | null)[];
  status?: Record<string, string> | string[];
  dimension: Record<string, { label?: string; category: { index?: Record<string, number> | string[]; label?: Record<string, string> } }>;
}

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
  if (index) return Object.entries(index).sort((a, b) => a[1] - b[1]).map(([code]) => code);
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
      const status = (ds.status as Record<number, string> | undefined)?.[cell];
      return { key: ordered(key, ds.id), labels: ordered(labels, ds.id), value: value ?? null, status: status ?? null };
    });
}

const ordered = (record: Record<string, string>, ids: string[]) => Object.fromEntries(ids.map((id) => [id, record[id]]));
