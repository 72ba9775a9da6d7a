import { test } from "node:test";
import assert from "node:assert/strict";
import { bundleService, dataOf, expectFree400, failing, statuses } from "./_bundles.ts";

const LISTS = ["ofac-sdn.excerpt", "eu-fsf.excerpt", "un-sc.excerpt", "uk-sanctions.excerpt"].map(
  (n) => `compliance/${n}`,
);
const GLEIF = "compliance/gleif.search-bloomberg";
const KEV = "publicdata/cisa-kev.catalog";
const LAZARUS_ETH = "0x098B716B8Aaf21512996dC57EB0615e2383E2f96";
const NOW = new Date("2026-11-21T06:00:00Z");

/** The service with the sanctions lists indexed (the compliance job, as in production). */
async function indexed(t: { after(fn: () => unknown): void }, fixtures: Parameters<typeof bundleService>[1]) {
  const { api, service } = await bundleService(t, [...LISTS, ...fixtures], {
    now: () => NOW,
    plugins: ["bundles", "compliance", "onchain", "publicdata"],
  });
  assert.equal(await service.jobs.run("compliance-sanctions-lists"), true);
  return { api, service };
}

test("company-risk: sanctions clear, the LEI record matching the name, no KEV entries: low", async (t) => {
  const { service } = await indexed(t, [GLEIF, KEV]);
  const data = dataOf(await service.call("company-risk", { name: "Bloomberg Finance" }));
  assert.deepEqual(statuses(data), { sanctions: 200, lei: 200, kev: 200 });
  assert.deepEqual(
    data.skipped.map((s: any) => s.part),
    ["sec", "whois", "tls"],
  );
  assert.equal(data.summary.level, "low");
  assert.deepEqual(data.summary.reasons, []);
  assert.equal(data.summary.sanctionsHits, 0);
  assert.equal(data.summary.lei.legalName, "Bloomberg Finance L.P.");
  assert.equal(data.summary.lei.similarity, 1);
  assert.equal(data.summary.exploitedVulnerabilities, 0);
});

test("company-risk: KEV down is a 502 in place; a bad domain is a free 400", async (t) => {
  const { api, service } = await indexed(t, [
    GLEIF,
    failing(
      "/feeds/known_exploited_vulnerabilities.json",
      500,
      "https://www.cisa.gov/known-exploited-vulnerabilities-catalog",
    ),
  ]);
  const data = dataOf(await service.call("company-risk", { name: "Bloomberg Finance" }));
  assert.equal(data.parts.kev.status, 502);
  assert.deepEqual(data.failed, ["kev"]);
  assert.equal(data.summary.exploitedVulnerabilities, null);
  assert.equal(data.summary.lei.lei, data.parts.lei.data.records[0].lei);
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/company-risk?name=Bloomberg&domain=not%20a%20domain"), "domain");
  await expectFree400(await service.request("/v1/company-risk"), "name");
  assert.equal(api.calls.length, calls);
});

test("compliance-scan: a listed name and its listed address are a block; GLEIF and the chain node down stay in place", async (t) => {
  const { service } = await indexed(t, [
    "onchain/goplus.address-security-flagged",
    failing(
      "/gleif/lei-records?filter[fulltext]=Lazarus%20Group&page[size]=2&page[number]=1",
      500,
      "https://api.gleif.org/",
    ),
  ]);
  const data = dataOf(await service.call("compliance-scan", { name: "Lazarus Group", address: LAZARUS_ETH }));
  assert.equal(data.parts.sanctionsName.status, 200);
  assert.equal(data.parts.sanctionsAddress.status, 200);
  assert.equal(data.parts.addressSecurity.status, 200);
  assert.equal(data.parts.walletRisk.status, 502, "wallet-risk reads a chain node, which this test does not run");
  assert.ok(data.parts.lei.status >= 502, JSON.stringify(data.parts.lei));
  assert.ok(!data.parts.approvals.ok, "approvals has no chain node in this test");
  assert.equal(data.summary.rating, "block");
  assert.match(data.summary.reasons[0], /sanctions match on ofac-sdn: LAZARUS GROUP/);
  assert.ok(data.summary.reasons.includes("address flagged as sanctioned"));
  assert.deepEqual(data.summary.lists.map((l: any) => l.id).sort(), ["eu-fsf", "ofac-sdn", "uk-sanctions", "un-sc"]);
  assert.match(data.summary.disclaimer, /not a legal determination/);
});

test("compliance-scan: nothing to screen is a 400; a malformed address a free 400", async (t) => {
  const { api, service } = await bundleService(t, [], { plugins: ["bundles", "compliance", "onchain"] });
  const out = await service.call("compliance-scan", { chain: "base" });
  assert.equal(out.status, 400);
  await expectFree400(await service.request("/v1/compliance-scan?address=0x12"), "address");
  assert.equal(api.calls.length, 0);
});

test("business-verify: LEI, VAT and sanctions compared: a VAT number of another company lowers the consistency", async (t) => {
  const { service } = await indexed(t, [GLEIF, "compliance/vies.ie-valid"]);
  const data = dataOf(await service.call("business-verify", { name: "Bloomberg Finance", vatNumber: "IE6388047V" }));
  assert.deepEqual(statuses(data), { lei: 200, vat: 200, sanctions: 200 });
  assert.deepEqual(
    data.summary.checks.map((c: any) => [c.check, c.passed]),
    [
      ["lei-match", true],
      ["lei-issued", true],
      ["vat-valid", true],
      ["vat-name", false],
      ["sanctions-clear", true],
    ],
  );
  assert.equal(data.summary.consistency, 0.8);
  assert.equal(data.summary.vatName, "GOOGLE IRELAND LIMITED");
});

test("business-verify: VIES down is a 502 in place, the checks that could run are scored; a bad LEI is a free 400", async (t) => {
  const { api, service } = await indexed(t, [
    GLEIF,
    failing("/vies/ms/IE/vat/6388047V", 500, "https://ec.europa.eu/taxation_customs/vies/"),
  ]);
  const data = dataOf(await service.call("business-verify", { name: "Bloomberg Finance", vatNumber: "IE6388047V" }));
  assert.ok(data.parts.vat.status >= 500);
  assert.deepEqual(data.failed, ["vat"]);
  assert.deepEqual(
    data.summary.checks.map((c: any) => c.check),
    ["lei-match", "lei-issued", "sanctions-clear"],
  );
  assert.equal(data.summary.consistency, 1);
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/business-verify?name=Acme&lei=123"), "lei");
  assert.equal(api.calls.length, calls);
});
