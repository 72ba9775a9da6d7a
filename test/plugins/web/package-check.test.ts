import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import packageCheck from "../../../plugins/web/package-check.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({
    plugins: ["web"],
    env: { UPSTREAM_NPM_REGISTRY_URL: url, UPSTREAM_PYPI_URL: `${url}/pypi`, UPSTREAM_OSV_URL: `${url}/v1` },
  });

test("package-check: an npm package's version, licence, deprecation, maintainers, publish time and vulnerabilities", async (t) => {
  const upstream = await serveFixtures(t, ["npm-registry.left-pad", "osv.left-pad"], { dir });
  const out = await (await serviceFor(upstream.url)).call(packageCheck, { name: "left-pad" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    ecosystem: "npm",
    name: "left-pad",
    exists: true,
    latest: "1.3.0",
    license: "WTFPL",
    deprecated: true,
    deprecationMessage: "use String.prototype.padStart()",
    maintainers: 1,
    lastPublish: "2018-04-09T01:22:39.813Z",
    vulnerabilities: { count: 0, ids: [] },
    url: "https://www.npmjs.com/package/left-pad",
  });
  assert.deepEqual((out.body as any).meta.sources, ["npm-registry", "osv"]);
});

test("package-check: a scoped npm package is encoded, reads a legacy licence object and counts OSV advisories", async (t) => {
  const upstream = await serveFixtures(t, ["npm-registry.scoped", "osv.scoped"], { dir });
  const data = ((await (await serviceFor(upstream.url)).call(packageCheck, { name: "@acme/widgets" })).body as any)
    .data;
  assert.equal(data.latest, "2.0.1");
  assert.equal(data.license, "MIT");
  assert.equal(data.deprecated, false);
  assert.equal(data.maintainers, 2);
  assert.equal(data.lastPublish, "2023-08-15T12:00:00.000Z");
  assert.deepEqual(data.vulnerabilities, { count: 2, ids: ["GHSA-aaaa-bbbb-cccc", "GHSA-dddd-eeee-ffff"] });
});

test("package-check: a PyPI project, with the PyPI ecosystem name at OSV", async (t) => {
  const upstream = await serveFixtures(t, ["pypi.requests", "osv.requests"], { dir });
  const data = (
    (await (await serviceFor(upstream.url)).call(packageCheck, { name: "requests", ecosystem: "pypi" })).body as any
  ).data;
  assert.equal(data.latest, "2.32.3");
  assert.equal(data.license, "Apache-2.0");
  assert.equal(data.deprecated, false);
  assert.equal(data.maintainers, null);
  assert.equal(data.lastPublish, "2024-05-29T15:37:49.536Z");
  assert.deepEqual(data.vulnerabilities, { count: 1, ids: ["GHSA-9hjg-9r4m-mvj7"] });
  assert.equal(data.url, "https://pypi.org/project/requests/");
});

test("package-check: a missing package is exists=false and OSV is not asked", async (t) => {
  const upstream = await serveFixtures(t, [
    {
      source: "https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md (404 for an unknown package)",
      request: { method: "GET", path: "/no-such-pkg-xyz" },
      response: { status: 404, body: { error: "Not found" } },
    },
  ]);
  const out = await (await serviceFor(upstream.url)).call(packageCheck, { name: "no-such-pkg-xyz" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.exists, false);
  assert.equal(data.vulnerabilities, null);
  assert.equal(upstream.calls.length, 1);
});

test("package-check: a failing registry is a 502", async (t) => {
  const upstream = await serveFixtures(
    t,
    [
      {
        source: "https://status.npmjs.org/ (registry outage answers 503)",
        request: { method: "GET", path: "/left-pad" },
        response: { status: 503, body: "Service Unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(upstream.url)).call(packageCheck, { name: "left-pad" });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).details?.upstream, "npm-registry");
});

test("package-check: bad input is a free 400 and calls nothing", async (t) => {
  const upstream = await serveFixtures(t, []);
  const service = await serviceFor(upstream.url);
  for (const query of ["name=has%20space", "name=../etc", "name=ok&ecosystem=cargo", "ecosystem=npm"]) {
    const res = await service.request(`/v1/package-check?${query}`);
    assert.equal(res.status, 400, query);
  }
  assert.equal(upstream.calls.length, 0);
});
