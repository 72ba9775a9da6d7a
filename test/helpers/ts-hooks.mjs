// Module hooks for the test processes: a .ts module of the project loads the JavaScript that test/run.mjs compiled
// for it before the run (one esbuild pass for the whole tree), under its own URL, so import.meta.url and every
// relative path stay those of the source. A module compiled after the run began (or without a cache) is compiled
// here. tsx does the same per module and process, with resolution and CommonJS hooks these tests do not need.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let cache;
let root;
let esbuild;

export function initialize(data) {
  ({ cache, root } = data);
}

export async function load(url, context, next) {
  // The sources import JSON without `with { type: "json" }`, as TypeScript and tsx allow.
  if (url.startsWith("file:") && url.endsWith(".json") && !url.includes("/node_modules/"))
    return next(url, { ...context, importAttributes: { ...context.importAttributes, type: "json" } });
  if (!url.startsWith("file:") || !url.endsWith(".ts") || url.includes("/node_modules/")) return next(url, context);
  const path = fileURLToPath(url);
  return { format: "module", source: compiled(path) ?? (await compile(path)), shortCircuit: true };
}

function compiled(path) {
  if (!cache || !path.startsWith(root)) return undefined;
  try {
    return readFileSync(`${cache}${path.slice(root.length, -3)}.js`, "utf8");
  } catch {
    return undefined;
  }
}

async function compile(path) {
  esbuild ??= await import("esbuild");
  return esbuild.transformSync(readFileSync(path, "utf8"), options(path)).code;
}

export const options = (path) => ({
  loader: "ts",
  format: "esm",
  platform: "node",
  target: "node20",
  sourcefile: path,
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
});
