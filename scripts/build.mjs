// `npm run build`: the service as plain JavaScript in dist/, the tree kept file for file (core/, plugins/),
// so Node runs it without tsx's loader. Each module of ours stays a module of its own: files that read a
// neighbour through import.meta.url, and the plugin loader that finds families by folder, work unchanged.
// Compiled modules end in .mjs so they never collide with the browser scripts kept beside them
// (plugins/arcade/_page.ts and _page.js).
//
// Each family is also bundled into one module beside its files, dist/plugins/<family>/_family.mjs: its entry and
// endpoint files with the family's own helpers, which the loader imports instead of the family's files one by one
// (the plugins are about 500 of the files a boot would load). What the family imports from core/, plugins/_shared/
// or a package stays an import of that module, so every family shares one copy of it.
//
// The packages they import are bundled into dist/vendor/, one module per import path with their shared code in
// chunks: Node spends about 1 ms of CPU per module file it loads, and viem alone is 356 files (600 ms to import,
// 100 ms as one bundle; bench/RESULTS.md, session 13). Packages that find their own files at run time (native
// addons, workers, WASM or data read beside their sources) stay in node_modules, imported as they are.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { builtinModules } from "node:module";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const outdir = join(root, process.argv[2] ?? "dist");
const vendorDir = join(outdir, "vendor");
const sources = ["core", "plugins"].flatMap((dir) => filesUnder(join(root, dir)));
/** The module of dist/plugins/<family>/ that core/runtime/load.ts imports for the whole family. */
const familyBundle = "_family.mjs";

/** Packages imported from node_modules as they are: they locate files beside their own sources. */
const inPlace = new Set([
  "h3", // loads srvx/node through createRequire(import.meta.url)
  "srvx", // h3's, kept with it so both share one copy
  "pino", // its transports run thread-stream workers from files of their own
  "pino-pretty",
  "thread-stream",
  "secp256k1", // native addon (node-gyp-build)
  "bufferutil",
  "utf-8-validate",
  "litesvm", // native addon
  "solc", // soljson from a path
  "tesseract.js", // worker script from a path
  "unpdf", // pdf.js worker
]);
/** What a package that finds its own files mentions: the build refuses to bundle such a package (add it to inPlace). */
const locatesItself = /\b__dirname\b|\b__filename\b|\bimport\.meta\.(url|dirname)\b|\brequire\.resolve\b/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
  );
}

const packageOf = (specifier) => specifier.split("/", specifier.startsWith("@") ? 2 : 1).join("/");
const isBuiltin = (specifier) => specifier.startsWith("node:") || builtinModules.includes(packageOf(specifier));
/** Where an import path of a package is bundled: dist/vendor/viem/accounts.mjs for viem/accounts. */
const vendorFile = (specifier) => join(vendorDir, `${specifier.replace(/\.(m?js|cjs)$/, "")}.mjs`);

/** Every package import path our modules use, bundled later into dist/vendor/. */
const vendored = new Set();

/**
 * Every relative import of a module stays an import of that module, renamed from .ts to .mjs; an import of a
 * package goes to its bundle in dist/vendor/ (or stays as it is for a package kept in place); JSON data is inlined.
 */
const keepModulesApart = {
  name: "keep-modules-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.(ts|js|mjs)$/ }, (args) =>
      args.kind === "entry-point" ? undefined : { path: args.path.replace(/\.ts$/, ".mjs"), external: true },
    );
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === "entry-point"
        ? undefined
        : packageImport(args.path, join(outdir, dirname(relative(root, args.importer)))),
    );
  },
};

/** A relative import path from a module in `fromDir` of dist/ to `file`. */
const importPath = (fromDir, file) =>
  relative(fromDir, file)
    .split(sep)
    .join("/")
    .replace(/^(?!\.)/, "./");

/** A package import of a module in `fromDir` of dist/: its bundle in dist/vendor/, or as it is when kept in place. */
function packageImport(specifier, fromDir) {
  if (isBuiltin(specifier) || inPlace.has(packageOf(specifier))) return undefined;
  vendored.add(specifier);
  return { path: importPath(fromDir, vendorFile(specifier)), external: true };
}

const families = readdirSync(join(root, "plugins"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("_") && existsSync(join(root, "plugins", d.name, "index.ts")))
  .map((d) => d.name);

/**
 * A family's bundle: its entry's plugin and, for each endpoint file (the loader's rule: a .ts file of the folder but
 * index.ts, _ helpers and declarations), the file's name in dist/ with its exports.
 */
function familyEntry(family) {
  const files = readdirSync(join(root, "plugins", family))
    .filter((f) => f.endsWith(".ts") && !f.startsWith("_") && f !== "index.ts" && !f.endsWith(".d.ts"))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    'export { default as plugin } from "./index.ts";',
    ...files.map((f, i) => `import * as endpoint${i} from "./${f}";`),
    `export const endpoints = [${files.map((f, i) => `[${JSON.stringify(f.replace(/\.ts$/, ".mjs"))}, endpoint${i}]`).join(", ")}];`,
  ].join("\n");
}

/**
 * Inside a family's bundle: its own folder's modules are bundled; core/, plugins/_shared/ and packages stay imports
 * of their modules in dist/.
 */
const bundleFamilies = {
  name: "bundle-families",
  setup(b) {
    b.onResolve({ filter: /^family:/ }, (args) => ({ path: args.path.slice("family:".length), namespace: "family" }));
    b.onLoad({ filter: /.*/, namespace: "family" }, (args) => ({
      contents: familyEntry(args.path),
      resolveDir: join(root, "plugins", args.path),
      loader: "js",
    }));
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      const family = relative(join(root, "plugins"), args.resolveDir).split(sep)[0];
      const bundleDir = join(outdir, "plugins", family);
      if (!/^\.\.?\//.test(args.path)) return packageImport(args.path, bundleDir);
      const target = resolve(args.resolveDir, args.path);
      if (target.startsWith(join(root, "plugins", family) + sep) || !/\.(ts|js|mjs)$/.test(target)) return undefined;
      return {
        path: importPath(bundleDir, join(outdir, relative(root, target)).replace(/\.ts$/, ".mjs")),
        external: true,
      };
    });
  },
};

/** Inside the vendor bundle: packages kept in place stay imports of node_modules. */
const leaveInPlace = {
  name: "leave-in-place",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind !== "entry-point" && !isBuiltin(args.path) && inPlace.has(packageOf(args.path))
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * A CommonJS package bundled as an ES module exports only its default; Node also gives named imports of it
 * (`import { Counter } from "prom-client"`). Its entry re-exports the names its module.exports has.
 */
const namedCommonJsExports = (names) => ({
  name: "named-commonjs-exports",
  setup(b) {
    b.onResolve({ filter: /^commonjs:/ }, (args) => ({
      path: args.path.slice("commonjs:".length),
      namespace: "commonjs",
    }));
    b.onLoad({ filter: /.*/, namespace: "commonjs" }, (args) => ({
      resolveDir: root,
      contents: [
        `const m = require(${JSON.stringify(args.path)});`,
        "export default m;",
        names.get(args.path).length ? `export const { ${names.get(args.path).join(", ")} } = m;` : "",
      ].join("\n"),
    }));
  },
});

/**
 * The names module.exports has for each CommonJS import path, read by requiring them in a child process;
 * reflect-metadata first, as core/runtime/container.ts imports it, since tsyringe refuses to load without it.
 */
function commonJsExportNames(specifiers) {
  const script = `
    const load = require("node:module").createRequire(${JSON.stringify(join(root, "package.json"))});
    try { load("reflect-metadata"); } catch {}
    const names = {};
    for (const s of ${JSON.stringify(specifiers)}) {
      const m = load(s);
      names[s] = (m && (typeof m === "object" || typeof m === "function") ? Object.keys(m) : [])
        .filter((k) => /^[A-Za-z_$][\\w$]*$/.test(k) && k !== "default");
    }
    process.stdout.write(JSON.stringify(names));`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: root, maxBuffer: 64 * 2 ** 20 });
  return new Map(Object.entries(JSON.parse(out.toString())));
}

// The loader takes every module of a family's folder not starting with _ (index aside) for an endpoint; in dist/
// that is every .mjs, so a plain-JS module of a family must be a _ helper or it would be served as an endpoint.
const strays = sources.filter((f) => /[\\/]plugins[\\/][^_\\/][^\\/]*[\\/][^_\\/][^\\/]*\.mjs$/.test(f));
if (strays.length) throw new Error(`plain-JS modules of a family must start with _: ${strays.join(", ")}`);

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
const typescript = sources.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
const common = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
};
await build({
  ...common,
  entryPoints: typescript,
  outdir,
  outbase: root,
  outExtension: { ".js": ".mjs" },
  packages: "external",
  plugins: [keepModulesApart],
});
const bundled = await build({
  ...common,
  entryPoints: families.map((family) => ({
    in: `family:${family}`,
    out: `plugins/${family}/${familyBundle.slice(0, -4)}`,
  })),
  outdir,
  outExtension: { ".js": ".mjs" },
  packages: "external",
  metafile: true,
  plugins: [bundleFamilies],
});
// A bundled module reads import.meta.url as its bundle's, in the family's folder: a module in a subfolder must not.
const movedAway = Object.keys(bundled.metafile.inputs).filter(
  (input) =>
    input.startsWith("plugins/") &&
    input.split("/").length > 3 &&
    /\bimport\.meta\b/.test(readFileSync(join(root, input), "utf8")),
);
if (movedAway.length)
  throw new Error(`modules in a family's subfolder must not read import.meta: ${movedAway.join(", ")}`);
const clashing = families.filter((family) =>
  existsSync(join(root, "plugins", family, familyBundle.replace(".mjs", ".ts"))),
);
if (clashing.length)
  throw new Error(`${familyBundle} is the build's name for a family's bundle: rename ${clashing.join(", ")}'s`);
const vendorEntries = (names) =>
  [...vendored].map((specifier) => ({
    in: names.has(specifier) ? `commonjs:${specifier}` : specifier,
    out: vendorFile(specifier).slice(vendorDir.length + 1, -4),
  }));
// Which import paths lead to CommonJS: their entry modules alone, parsed without their imports.
const entriesAlone = await build({
  ...common,
  entryPoints: vendorEntries(new Map()),
  outdir: vendorDir,
  outExtension: { ".js": ".mjs" },
  write: false,
  metafile: true,
  plugins: [
    {
      name: "alone",
      setup: (b) =>
        b.onResolve({ filter: /.*/ }, (a) => (a.kind === "entry-point" ? undefined : { path: a.path, external: true })),
    },
  ],
});
const commonJs = Object.entries(entriesAlone.metafile.outputs)
  .filter(([, o]) => entriesAlone.metafile.inputs[o.entryPoint]?.format === "cjs")
  .map(([path]) => [...vendored].find((s) => vendorFile(s) === join(root, path)));
const names = commonJsExportNames(commonJs);
const vendor = await build({
  ...common,
  entryPoints: vendorEntries(names),
  outdir: vendorDir,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS code inside an ES module has no require of its own: the one of its bundle, for Node's built-ins.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  metafile: true,
  plugins: [leaveInPlace, namedCommonJsExports(names)],
});
const locating = new Set(
  Object.keys(vendor.metafile.inputs)
    .filter((input) => input.includes("node_modules/") && locatesItself.test(readFileSync(join(root, input), "utf8")))
    .map((input) => packageOf(input.slice(input.lastIndexOf("node_modules/") + "node_modules/".length))),
);
if (locating.size)
  throw new Error(
    `packages that locate their own files cannot be bundled; add them to inPlace: ${[...locating].join(", ")}`,
  );
for (const file of sources.filter((f) => !f.endsWith(".ts"))) {
  const to = join(outdir, file.slice(root.length));
  mkdirSync(dirname(to), { recursive: true });
  cpSync(file, to);
}
// The service reads its version from package.json beside core/, as it does from the sources.
cpSync(join(root, "package.json"), join(outdir, "package.json"));
console.log(
  `built ${typescript.length} modules, ${families.length} family bundles and ${vendored.size} package imports into ${outdir} in ${Math.round(performance.now() - started)} ms`,
);
