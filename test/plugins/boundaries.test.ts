import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

// The wall around each family (CONTRIBUTING, "Boundaries"): a file under plugins/<family>/ imports its own
// folder, plugins/_shared/ and the plugin-facing core modules below; plugins/_shared/ imports itself and those.
const root = fileURLToPath(new URL("../../", import.meta.url));
const plugins = join(root, "plugins");

/** What a plugin may import from the core: the plugin contract, pure helpers, errors, and the facilities CONTRIBUTING's "When an endpoint needs more" names. */
const coreAllowList = [
  "core/endpoint.ts",
  "core/shared.ts",
  "core/runtime/errors.ts",
  "core/runtime/settings.ts",
  "core/runtime/worker-pool.ts",
  "core/runtime/worker-jobs.mjs",
  "core/runtime/chain-client.ts",
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === "contracts" ? [] : sources(path);
    return /\.(ts|mts|mjs|js)$/.test(d.name) ? [path] : [];
  });
}

const specifier = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Every relative import in `file` that leaves what its folder may reach, as `file:line: target`. */
function crossings(file: string, text = readFileSync(file, "utf8")): string[] {
  const home = relative(plugins, file).split(sep)[0];
  const mayReach = (target: string) => {
    const path = relative(root, target).split(sep).join("/");
    if (path.startsWith("plugins/")) {
      const folder = path.split("/")[1];
      return folder === home || folder === "_shared";
    }
    return coreAllowList.includes(path);
  };
  return text.split("\n").flatMap((line, i) =>
    [...line.matchAll(specifier)]
      .map((m) => resolve(dirname(file), m[1]))
      .filter((target) => !mayReach(target))
      .map((target) => `${relative(root, file)}:${i + 1}: ${relative(root, target)}`),
  );
}

test("boundaries: a family imports only its own folder, plugins/_shared/ and the core's plugin-facing modules", () => {
  const files = sources(plugins);
  assert.ok(files.length > 300, `found ${files.length} plugin sources`);
  assert.deepEqual(
    files.flatMap((file) => crossings(file)),
    [],
  );
});

test("boundaries: the check names another family's file and a core module outside the list", () => {
  const probe = join(plugins, "compliance", "probe.ts");
  const text = [
    'import { tokenOf } from "../onchain/_tokens.ts";',
    'import { readToolEnv } from "../../core/runtime/config.ts";',
    'import { addressField } from "../_shared/onchain-inputs.ts";',
    'import { badRequest } from "../../core/runtime/errors.ts";',
    'const { hash } = await import("./_hash.ts");',
  ].join("\n");
  assert.deepEqual(crossings(probe, text), [
    `${join("plugins", "compliance", "probe.ts")}:1: ${join("plugins", "onchain", "_tokens.ts")}`,
    `${join("plugins", "compliance", "probe.ts")}:2: ${join("core", "runtime", "config.ts")}`,
  ]);
});
