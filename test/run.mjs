// Node 20's test runner does not expand globs: find the test files here and hand them over. The project's
// TypeScript is compiled once up front (esbuild, a module per file) and loaded by test/helpers/ts-loader.mjs;
// TEST_LOADER=tsx runs the sources through tsx instead.
// Failed tests are listed again at the end. TEST_CPU=1 also prints each file's CPU time (its process and the processes it started), largest first.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { build } from "esbuild";
import { options } from "./helpers/ts-hooks.mjs";

const find = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? d.name === "fixtures"
        ? []
        : find(join(dir, d.name))
      : d.name.endsWith(".test.ts")
        ? [join(dir, d.name)]
        : [],
  );

const only = process.argv.slice(2);
const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const cache = mkdtempSync(join(tmpdir(), "test-ts-"));
const sources = ["core", "plugins", "test", "bench", "scripts"].flatMap((dir) => sourcesUnder(join(root, dir)));
const { tsconfigRaw, target, platform, format } = options("");
await build({
  entryPoints: sources,
  outdir: cache,
  outbase: root,
  tsconfigRaw,
  target,
  platform,
  format,
  logLevel: "warning",
});

const files = (only.length ? only.flatMap((p) => (p.endsWith(".ts") ? [p] : find(p))) : find("test")).sort();
const table = process.env.TEST_CPU ? join(mkdtempSync(join(tmpdir(), "test-cpu-")), "cpu.jsonl") : undefined;
const failures = join(mkdtempSync(join(tmpdir(), "test-failures-")), "failed.txt");
const cpuArgs = table ? ["--import", "./test/helpers/cpu-table.mjs"] : [];
const { status } = spawnSync(
  process.execPath,
  [
    "--import",
    process.env.TEST_LOADER ?? "./test/helpers/ts-loader.mjs",
    ...cpuArgs,
    "--test",
    "--test-concurrency=4",
    "--test-timeout=600000",
    "--test-reporter=tap",
    "--test-reporter-destination=stdout",
    "--test-reporter=./test/helpers/failures-reporter.mjs",
    `--test-reporter-destination=${failures}`,
    ...files,
  ],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      TEST_TS_CACHE: cache,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      ...(table ? { TEST_CPU_TABLE: table } : {}),
    },
  },
);
rmSync(cache, { recursive: true, force: true });
if (table) printCpu(table);
try {
  console.log(readFileSync(failures, "utf8"));
} catch {}
process.exit(status ?? 1);

function sourcesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? d.name === "node_modules"
        ? []
        : sourcesUnder(join(dir, d.name))
      : d.name.endsWith(".ts") && !d.name.endsWith(".d.ts")
        ? [join(dir, d.name)]
        : [],
  );
}

function printCpu(path) {
  let rows = [];
  try {
    rows = readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map(JSON.parse);
  } catch {}
  rows.sort((a, b) => b.own + b.children - (a.own + a.children));
  const s = (x) => x.toFixed(1).padStart(7);
  console.log(`\n# CPU per file (s): own + started processes = total, wall; ${rows.length} of ${files.length} files`);
  for (const r of rows) console.log(`# ${s(r.own)} ${s(r.children)} ${s(r.own + r.children)} ${s(r.wall)}  ${r.file}`);
  const sum = rows.reduce((total, r) => total + r.own + r.children, 0);
  console.log(`# total CPU ${sum.toFixed(1)} s`);
}
