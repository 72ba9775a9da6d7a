// test: own-process: runs the smoke script as a process
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runSmoke, renderSmoke } from "../../../core/runtime/smoke.ts";
import { loadPlugins } from "../../../core/runtime/load.ts";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { upstreamUrlEnv } from "../../helpers/service.ts";
import { tsNodeArgs, tsNodeEnv } from "../../helpers/ts-node.ts";

const plugins = new URL("../../plugins/", import.meta.url);
const ror = () => loadFixture("ror.oxford", new URL("publicdata/fixtures/", plugins));
const quote = () => loadFixture("twelve-data.quote-aapl", new URL("market/fixtures/", plugins));
const fngDown: Fixture = {
  source: "https://alternative.me/crypto/fear-and-greed-index/#api (a server error, as any upstream may answer)",
  request: { method: "GET", path: "/alternative-me/fng/?limit=1&format=json" },
  response: { status: 500, body: "down", headers: { "retry-after": "0" } },
};

const { upstreams } = await loadPlugins();

/** The operator's environment with every upstream pointed at the loopback fixture server, under its name unless said otherwise. */
const envFor = (url: string) => ({
  ...upstreamUrlEnv(Object.keys(upstreams), (name) => `${url}/${name}`),
  PLUGINS: "market,publicdata",
  UPSTREAM_ROR_URL: `${url}/v2`,
  UPSTREAM_TWELVE_DATA_URL: `${url}/twelve-data`,
  UPSTREAM_TWELVE_DATA_KEY: "smoke-test-key",
  UPSTREAM_ALTERNATIVE_ME_URL: `${url}/alternative-me`,
});

test("smoke: each example through the call path, a table row per endpoint, a failure counted with its upstream", async (t) => {
  const api = await serveFixtures(t, [await ror(), await quote(), fngDown], { reuse: true });
  const result = await runSmoke({ env: envFor(api.url), only: ["ror", "stock", "fear-greed"] });
  assert.deepEqual(
    result.rows.map((r) => [r.endpoint, r.upstream, r.status]),
    [
      ["fear-greed", "alternative-me", 502],
      ["ror", "ror", 200],
      ["stock", "twelve-data", 200],
    ],
  );
  assert.equal(result.failed, 1);
  assert.match(result.rows[0].failure, /alternative-me answered 500/);
  assert.equal(api.calls.filter((c) => c.path.startsWith("/v2/organizations/")).length, 1);
  const text = renderSmoke(result, 1.25);
  const lines = text.split("\n");
  assert.match(lines[0], /^endpoint\s+upstream\s+status\s+latency\s+what failed$/);
  assert.match(lines[1], /^fear-greed\s+alternative-me\s+502\s+\d+ ms\s+upstream_error: .*500/);
  assert.match(lines[2], /^ror\s+ror\s+200\s+\d+ ms$/);
  assert.match(text, /\n3 endpoints: 2 ok, 1 failed, 0 skipped, \d+ disabled by configuration, in 1\.3 s$/);
});

test("smoke: an endpoint name that is not mounted fails the run", async (t) => {
  const api = await serveFixtures(t, []);
  const result = await runSmoke({ env: envFor(api.url), only: ["no-such-endpoint"] });
  assert.equal(result.failed, 1);
  assert.match(renderSmoke(result, 0), /no-such-endpoint\s+-\s+unknown\s+-\s+not a mounted endpoint/);
});

test("smoke: --record writes what came back as fixtures that replay to the same answers", async (t) => {
  const real = await serveFixtures(t, [await ror(), await quote()]);
  const dir = await mkdtemp(join(tmpdir(), "smoke-record-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const recordTo = pathToFileURL(`${dir}/`);
  const recorded = await runSmoke({ env: envFor(real.url), only: ["ror", "stock"], record: recordTo });
  assert.equal(recorded.failed, 0);
  assert.equal(real.calls.length, 2);
  // The key went to the upstream but never into a file.
  assert.equal(
    new URL(real.calls.find((c) => c.path.includes("quote"))!.path, real.url).searchParams.get("apikey"),
    "smoke-test-key",
  );
  const files = (await readdir(dir)).sort();
  assert.deepEqual(files, ["ror.get-organizations-052gg0110.json", "twelve-data.get-quote-symbol-aapl.json"]);
  const fixture = JSON.parse(await readFile(join(dir, files[1]), "utf8"));
  assert.match(
    fixture.source,
    new RegExp(`^recorded from ${real.url}/twelve-data/quote\\?symbol=AAPL on \\d{4}-\\d{2}-\\d{2}$`),
  );
  assert.deepEqual(fixture.request, { method: "GET", path: "/twelve-data/quote?symbol=AAPL" });
  assert.deepEqual(fixture.response.body, (await quote()).response.body);
  assert.doesNotMatch(await readFile(join(dir, files[1]), "utf8"), /smoke-test-key/);

  // Served back from the recordings alone, the same examples pass.
  const replay = await serveFixtures(t, files, { dir: recordTo });
  const again = await runSmoke({
    env: { ...envFor(replay.url), UPSTREAM_ROR_URL: `${replay.url}/ror` },
    only: ["ror", "stock"],
  });
  assert.deepEqual(
    again.rows.map((r) => r.status),
    [200, 200],
  );
});

test("smoke: npm run smoke exits 0 when every endpoint answers and 1 when one fails, printing the table", async (t) => {
  const api = await serveFixtures(t, [await ror(), fngDown], { reuse: true });
  const run = (names: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, tsNodeArgs("core/runtime/smoke.ts", ...names), {
        cwd: new URL("../../../", import.meta.url),
        env: { PATH: process.env.PATH, ...tsNodeEnv(), ...envFor(api.url) },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  const passing = await run(["ror"]);
  assert.equal(passing.code, 0, passing.stderr);
  assert.match(passing.stdout, /^ror\s+ror\s+200/m);
  assert.match(passing.stderr, /^1\/1 ror$/m);
  const failing = await run(["ror", "fear-greed"]);
  assert.equal(failing.code, 1, failing.stderr);
  assert.match(failing.stdout, /^fear-greed\s+alternative-me\s+502/m);
  assert.match(failing.stdout, /2 endpoints: 1 ok, 1 failed/);
});
