// Node 20's test runner does not expand globs: find the test files here and hand them over.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

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
const files = (only.length ? only.flatMap((p) => (p.endsWith(".ts") ? [p] : find(p))) : find("test")).sort();
const { status } = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=4", "--test-timeout=300000", ...files],
  { stdio: "inherit", env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" } },
);
process.exit(status ?? 1);
