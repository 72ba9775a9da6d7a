import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// `npm run lint` as part of the suite, so CI refuses unformatted code or a lint error (`npm run format` fixes most).
const root = fileURLToPath(new URL("../../", import.meta.url));

test("npm run lint is clean: every source formatted, no lint diagnostic", () => {
  const biome = fileURLToPath(new URL("../../node_modules/@biomejs/biome/bin/biome", import.meta.url));
  const run = spawnSync(process.execPath, [biome, "ci", "--colors=off", "."], { cwd: root, encoding: "utf8" });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`.slice(-8_000));
});
