import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// The boundaries between the core and the plugins, as searches over the sources (CONTRIBUTING, "Boundaries"
// gives the same searches as grep commands). Each lists the offending lines, so a failure says where.
const root = fileURLToPath(new URL("../../", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === "node_modules" || d.name === "fixtures" ? [] : sources(path);
    return /\.(ts|mjs|js)$/.test(d.name) ? [path] : [];
  });
}

/** Every `file:line: text` under `dirs` whose line matches `pattern`. */
function matches(dirs: string[], pattern: RegExp, except: (file: string) => boolean = () => false): string[] {
  return dirs
    .flatMap(sources)
    .filter((file) => !except(file))
    .flatMap((file) =>
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .flatMap((line, i) =>
          pattern.test(line) ? [`${relative(root, join(root, file))}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
}

const importOf = (target: string) => new RegExp(`(from|import)\\s*\\(?\\s*["'][./]*${target}`);

test("the environment is read in one place: no process.env in core/ or plugins/ outside core/runtime/config.ts", () => {
  assert.deepEqual(
    matches(["core", "plugins"], /process\.env/, (file) => file === join("core", "runtime", "config.ts")),
    [],
  );
});

test("plugins import no payment code (nothing from core/x402)", () => {
  assert.deepEqual(matches(["plugins"], importOf("core/x402/")), []);
});

test("the core imports no plugin, its tests and the shared test helpers included", () => {
  assert.deepEqual(matches(["core", "test/core", "test/helpers"], importOf("(\\.\\./)*plugins/")), []);
});

test("tests never change the global process.env (a service's environment is startTestService({ env }))", () => {
  assert.deepEqual(
    matches(
      ["test"],
      /process\.env(\.\w+|\[[^\]]+\])?\s*(=[^=]|\?\?=)|Object\.assign\(\s*process\.env|delete\s+process\.env/,
    ),
    [],
  );
});
