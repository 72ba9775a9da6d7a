// `npm run build`: the service as plain JavaScript in dist/, the tree kept file for file (core/, plugins/),
// so Node runs it without tsx's loader (boot 1.1 s instead of 2 s, 146 MB instead of 220 MB; bench/RESULTS.md).
// Each module stays a module of its own: files that read a neighbour through import.meta.url, and the
// plugin loader that finds families by folder, work unchanged. Compiled modules end in .mjs so they never
// collide with the browser scripts kept beside them (plugins/arcade/_page.ts and _page.js).
import { build } from "esbuild";
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const outdir = join(root, process.argv[2] ?? "dist");
const sources = ["core", "plugins"].flatMap((dir) => filesUnder(join(root, dir)));

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
  );
}

/** Every relative import of a module stays an import of that module, renamed from .ts to .mjs; JSON data is inlined. */
const keepModulesApart = {
  name: "keep-modules-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.(ts|js|mjs)$/ }, (args) =>
      args.kind === "entry-point" ? undefined : { path: args.path.replace(/\.ts$/, ".mjs"), external: true },
    );
  },
};

// The loader takes every module of a family's folder not starting with _ (index aside) for an endpoint; in dist/
// that is every .mjs, so a plain-JS module of a family must be a _ helper or it would be served as an endpoint.
const strays = sources.filter((f) => /[\\/]plugins[\\/][^_\\/][^\\/]*[\\/][^_\\/][^\\/]*\.mjs$/.test(f));
if (strays.length) throw new Error(`plain-JS modules of a family must start with _: ${strays.join(", ")}`);

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
const typescript = sources.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
await build({
  entryPoints: typescript,
  outdir,
  outbase: root,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  plugins: [keepModulesApart],
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});
for (const file of sources.filter((f) => !f.endsWith(".ts"))) {
  const to = join(outdir, file.slice(root.length));
  mkdirSync(dirname(to), { recursive: true });
  cpSync(file, to);
}
// The service reads its version from package.json beside core/, as it does from the sources.
cpSync(join(root, "package.json"), join(outdir, "package.json"));
console.log(`built ${typescript.length} modules into ${outdir} in ${Math.round(performance.now() - started)} ms`);
