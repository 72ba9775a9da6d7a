import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_CISA_KEV_URL: `${url}/feeds` });
const feedDocs = "https://www.cisa.gov/known-exploited-vulnerabilities-catalog";

test("kev: one CVE in our shape, with the NVD link", async (t) => {
  const api = await serveFixtures(t, ["cisa-kev.catalog"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("kev", { cve: "cve-2021-44228" }));
  assert.equal(data.catalogVersion, "2025.01.14");
  assert.equal(data.released, "2025-01-14T18:00:29.632Z");
  assert.equal(data.total, 1);
  assert.deepEqual(data.vulnerabilities[0], {
    id: "CVE-2021-44228",
    title: "Apache Log4j2 Remote Code Execution Vulnerability",
    vendor: "Apache",
    product: "Log4j2",
    description:
      "Apache Log4j2 contains a vulnerability where JNDI features do not protect against attacker-controlled JNDI-related endpoints, allowing for remote code execution.",
    dateAdded: "2021-12-10",
    dueDate: "2021-12-24",
    requiredAction:
      "For all affected software assets for which updates exist, the only acceptable remediation actions are: 1) Apply updates; OR 2) remove affected assets from agency networks.",
    knownRansomwareUse: true,
    cwes: ["CWE-20", "CWE-400", "CWE-502"],
    notes: "https://nvd.nist.gov/vuln/detail/CVE-2021-44228",
    url: "https://nvd.nist.gov/vuln/detail/CVE-2021-44228",
  });
});

test("kev: filters run on one fetched catalog, newest first", async (t) => {
  const api = await serveFixtures(t, ["cisa-kev.catalog"], { dir });
  const service = await serviceFor(api.url);
  const microsoft = dataOf(await service.call("kev", { vendor: "micro" }));
  assert.deepEqual(
    microsoft.vulnerabilities.map((e: any) => e.id),
    ["CVE-2025-21335", "CVE-2024-49138"],
  );
  const recent = dataOf(await service.call("kev", { since: "2025-01-01" }));
  assert.deepEqual(
    recent.vulnerabilities.map((e: any) => e.id),
    ["CVE-2025-21335"],
  );
  const ransomware = dataOf(await service.call("kev", { ransomware: true, limit: 5 }));
  assert.deepEqual(
    ransomware.vulnerabilities.map((e: any) => e.id),
    ["CVE-2021-44228"],
  );
  assert.equal(api.calls.length, 1, "the catalog is fetched once and kept for 6 hours");
});

test("kev: a CVE not in the catalog is a 404", async (t) => {
  const api = await serveFixtures(t, ["cisa-kev.catalog"], { dir });
  expectNotFound(await (await serviceFor(api.url)).call("kev", { cve: "CVE-1999-0001" }));
});

test("kev: a failing feed is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/feeds/known_exploited_vulnerabilities.json", feedDocs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("kev", {}));
});

test("kev: bad input is a free 400 and fetches nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/kev?cve=log4shell"), "cve");
  await expectFree400(await service.request("/v1/kev?since=2025-13-40"), "since");
  await expectFree400(await service.request("/v1/kev?limit=0"), "limit");
  assert.equal(api.calls.length, 0);
});
