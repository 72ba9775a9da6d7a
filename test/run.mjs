// Node 20's test runner does not expand globs: find the test files here and hand them over. The project's
// TypeScript is compiled once up front (esbuild, a module per file) and loaded by test/helpers/ts-loader.mjs;
// TEST_LOADER=tsx runs the sources through tsx instead.
// Node's runner starts a process per file, and each pays ~3 s of CPU to load the loader and the service's modules:
// the files of one folder, a plugin family's (test/plugins/<family>/) or test/core's (test/core/ and each folder
// under it), run in groups of up to 12 instead, one process per group (test/helpers/test-group.mjs), each file after
// the one before. A file whose first line starts `// test: own-process` (and says why: it spawns the service, sets a
// process-wide global, or is a heavy sweep better run beside the others) keeps a process of its own, as do
// test/faults and test/deploy; TEST_OWN_PROCESS=1 gives every file its own, as Node does.
// Failed tests are listed again at the end. TEST_CPU=1 also prints each process's CPU time (its own and that of the
// processes it started), a file's or a group's, largest first.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
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

const files = (only.length ? only.flatMap((p) => (p.endsWith(".ts") ? [p] : find(p))) : find("test"))
  .map((file) => relative(root, resolve(file)))
  .sort();
const groups = process.env.TEST_OWN_PROCESS ? [] : groupsOf(files);
const groupsFile = join(cache, "groups.json");
writeFileSync(groupsFile, JSON.stringify(Object.fromEntries(groups.map((g) => [g.entry, g]))));
const grouped = new Set(groups.flatMap((g) => g.files));
const processes = [...groups.map((g) => g.entry), ...files.filter((file) => !grouped.has(file))];
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
    ...processes,
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      TEST_TS_CACHE: cache,
      TEST_GROUPS: groupsFile,
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

// The files of each plugin family and each test/core folder but those marked `// test: own-process`, in groups of at
// most groupSize files (a folder's split evenly, so --test-concurrency has several to spread), each with the entry
// module its process runs. A group of one file is no group: that file runs as itself.
function groupsOf(files) {
  const groupSize = 12;
  const folders = new Map();
  for (const file of files) {
    if (!/^test\/(plugins\/[^/]+|core(\/[^/]+)?)\/[^/]+\.test\.ts$/.test(file) || ownProcess(file)) continue;
    folders.set(dirname(file), [...(folders.get(dirname(file)) ?? []), file]);
  }
  const runner = new URL("./helpers/test-group.mjs", import.meta.url).href;
  mkdirSync(join(cache, "groups"));
  return [...folders]
    .filter(([, members]) => members.length > 1)
    .flatMap(([folder, members]) => {
      const count = Math.ceil(members.length / groupSize);
      const size = Math.ceil(members.length / count);
      return Array.from({ length: count }, (_, i) => {
        const group = members.slice(i * size, (i + 1) * size);
        const entry = join(cache, "groups", `${folder.replaceAll("/", "-")}-${i + 1}.group.mjs`);
        writeFileSync(entry, `import { runGroup } from "${runner}";\nawait runGroup(${JSON.stringify(group)});\n`);
        return { entry, label: count > 1 ? `${folder} (${i + 1} of ${count})` : folder, files: group };
      });
    });
}

function ownProcess(file) {
  return readFileSync(join(root, file), "utf8").startsWith("// test: own-process");
}

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
  const groupOf = new Map(groups.map((g) => [g.entry, g]));
  const name = (file) => {
    const group = groupOf.get(resolve(root, file));
    return group ? `${group.label}: ${group.files.length} files in one process` : file;
  };
  console.log(
    `\n# CPU per process, a file's or a group's (s): own + started processes = total, wall; peak memory (MB); ${rows.length} of ${processes.length} processes (${files.length} files)`,
  );
  for (const r of rows)
    console.log(`# ${s(r.own)} ${s(r.children)} ${s(r.own + r.children)} ${s(r.wall)} ${s(r.peakMb)}  ${name(r.file)}`);
  const sum = rows.reduce((total, r) => total + r.own + r.children, 0);
  console.log(`# total CPU ${sum.toFixed(1)} s`);
}
