// test: own-process: asks which modules this process has loaded
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { setImmediate as nextTurn } from "node:timers/promises";
import { startTestService } from "../../helpers/service.ts";

const require = createRequire(import.meta.url);
const tldts = require.resolve("tldts");

test("a library the families load only on use (tldts) is not loaded by boot, and is loaded in the background once the service is ready", async () => {
  const service = await startTestService({ plugins: ["web", "compliance"] });
  assert.ok(service.runtime.endpoints.some((e) => e.name === "url-info"));
  assert.equal(tldts in require.cache, false, "loaded before the service was ready");
  await nextTurn();
  assert.equal(tldts in require.cache, true, "not loaded once the service was ready");
});
