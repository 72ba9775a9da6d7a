import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

const versions = new Map<string, string>();

/** `name@version` of an installed dataset package, read from its package.json (some hide it behind `exports`). */
export function datasetVersion(pkg: string): string {
  let known = versions.get(pkg);
  if (!known) {
    let dir = dirname(require.resolve(pkg));
    for (;;) {
      const manifest = tryRead(join(dir, "package.json"));
      if (manifest?.name === pkg) {
        known = `${pkg}@${manifest.version}`;
        break;
      }
      const parent = dirname(dir);
      if (parent === dir) throw new Error(`no package.json found for ${pkg}`);
      dir = parent;
    }
    versions.set(pkg, known);
  }
  return known;
}

function tryRead(file: string): { name?: string; version?: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** Require a CommonJS dataset package (JSON arrays and the like). */
export const requireDataset = <T>(pkg: string): T => require(pkg) as T;
