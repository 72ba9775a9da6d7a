// test: own-process: builds the service and runs it as a process
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort } from "../../../bench/lib/ports.ts";
import { importFamily, listFamilies } from "../../../core/runtime/load.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const out = `node_modules/.cache/build-test-${process.pid}`;

test("npm start's build runs the whole service under plain Node, each family from its bundle: discovery, a 402, a page and its script", {
  timeout: 120_000,
}, async (t) => {
  execFileSync(process.execPath, ["scripts/build.mjs", out], { cwd: root, stdio: "ignore" });
  t.after(() => rmSync(`${root}${out}`, { recursive: true, force: true }));
  for (const file of [
    "core/main.mjs",
    "plugins/converters/index.mjs",
    "plugins/arcade/_page.js",
    "plugins/arcade/_page.mjs",
    "core/x402/devnet/TestUSDC.sol",
    "package.json",
  ]) {
    assert.ok(existsSync(`${root}${out}/${file}`), file);
  }

  // Each family is served from its bundle in the build: the same endpoints, in the same order, as its files.
  const built: typeof import("../../../core/runtime/load.ts") = await import(`${root}${out}/core/runtime/load.mjs`);
  for (const family of await listFamilies()) {
    const fromBundle = await built.importFamily(family);
    const fromFiles = await importFamily(family);
    assert.ok(existsSync(`${root}${out}/plugins/${family}/_family.mjs`), family);
    assert.deepEqual(
      fromBundle.endpoints.map((e) => `${e.method} ${e.path} ${e.name} ${e.price}`),
      fromFiles.endpoints.map((e) => `${e.method} ${e.path} ${e.name} ${e.price}`),
      family,
    );
  }

  // What the built service loads is the bundle: an endpoint whose own module is gone still answers.
  rmSync(`${root}${out}/plugins/converters/hash.mjs`);

  const port = await freePort();
  const child = spawn(process.execPath, [`${out}/core/main.mjs`], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      JOBS: "off",
      PLUGINS: "converters,arcade",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  t.after(() => child.kill("SIGKILL"));
  // What the service said before it died names the cause when it fails to boot.
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const listening = new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the built service exited with ${code}: ${output.slice(-2000)}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.includes('"level":30')) output += `${line}\n`;
      if (line.includes('"msg":"listening"')) resolve();
    });
  });
  await listening;
  const base = `http://127.0.0.1:${port}`;

  const health = await (await fetch(`${base}/health`)).json();
  assert.deepEqual(health.families, ["arcade", "converters", "core"]);
  const challenge = await fetch(`${base}/v1/hash?text=hi`);
  assert.equal(challenge.status, 402);
  assert.ok(challenge.headers.get("payment-required"));
  assert.equal((await fetch(`${base}/openapi.json`)).status, 200);
  const page = await fetch(`${base}/arcade`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<html/i);
  const script = await fetch(`${base}/arcade/app.js`);
  assert.equal(script.status, 200);
  assert.match(await script.text(), /verifyFairness/);

  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  assert.equal(await exited, 0, "a SIGTERM drains and exits cleanly");
});
