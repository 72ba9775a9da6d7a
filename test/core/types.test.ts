import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// `npm run typecheck` as part of the suite: tsx runs code without checking its types, so a type error would pass every other test.
const root = fileURLToPath(new URL("../../", import.meta.url));

test("npm run typecheck is clean: the whole project, tests included, passes tsc", () => {
  const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
  const run = spawnSync(process.execPath, [tsc, "--noEmit", "-p", "."], { cwd: root, encoding: "utf8" });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`.slice(-8_000));
});
