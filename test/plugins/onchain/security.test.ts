import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import addressSecurity from "../../../plugins/onchain/address-security.ts";
import tokenSecurity from "../../../plugins/onchain/token-security.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) => startTestService({ plugins: ["onchain"], env: { UPSTREAM_GOPLUS_URL: url } });
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const FLAGGED = "0x098B716B8Aaf21512996dC57EB0615e2383E2f96";
const goplusAnswer = (path: string, body: unknown, status = 200): Fixture => ({
  source: "https://docs.gopluslabs.io/reference/api-overview ({code, message, result}; code 1 is success)",
  request: { method: "GET", path },
  response: { status, body },
});

test("token-security: GoPlus flags as booleans, taxes as fractions, raised flags listed", async (t) => {
  const api = await serveFixtures(t, ["goplus.token-security-pepe"], { dir });
  const out = await (await serviceWith(api.url)).call(tokenSecurity, {
    address: PEPE.toLowerCase(),
    chain: "ethereum",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual([data.address, data.name, data.symbol], [PEPE, "Pepe", "PEPE"]);
  assert.equal(data.checks.honeypot, false);
  assert.equal(data.checks.openSource, true);
  assert.deepEqual(data.risks, ["blacklist"]);
  assert.deepEqual([data.buyTax, data.sellTax, data.holderCount], [0, 0, 502118]);
  assert.deepEqual(data.creator, { address: "0xF4a5E8F5D4FD61d4Ffa2FBDc5b6F3AA4f98a84D8", share: 0 });
  assert.deepEqual(data.topHolders[1], {
    address: "0x000000000000000000000000000000000000dead",
    share: 0.0099,
    isContract: false,
    isLocked: true,
    tag: "Null Address",
  });
  assert.deepEqual(data.dexes, [
    { name: "UniswapV2", pair: "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f", liquidityUsd: 28914236.5 },
  ]);
});

test("token-security: a token GoPlus does not know is a 404; an error code a 502", async (t) => {
  const path = `/v1/token_security/8453?contract_addresses=${PEPE.toLowerCase()}`;
  const api = await serveFixtures(t, [
    goplusAnswer(path, { code: 1, message: "OK", result: {} }),
    goplusAnswer(path, { code: 4029, message: "too many requests", result: null }),
  ]);
  const service = await serviceWith(api.url);
  assert.equal((await service.call(tokenSecurity, { address: PEPE, chain: "base" })).status, 404);
  const limited = await service.call(tokenSecurity, { address: PEPE, chain: "base" });
  assert.equal(limited.status, 502);
  assert.match(errorOf(limited).message, /4029/);
});

test("address-security: flags, risks and data sources", async (t) => {
  const api = await serveFixtures(t, ["goplus.address-security-flagged"], { dir });
  const out = await (await serviceWith(api.url)).call(addressSecurity, { address: FLAGGED, chain: "ethereum" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.flagged, true);
  assert.deepEqual(data.risks, ["sanctioned", "stealingAttack"]);
  assert.deepEqual(data.dataSources, ["OFAC", "SlowMist"]);
  assert.deepEqual([data.isContract, data.maliciousContractsCreated, data.flags.mixer], [false, 0, false]);
});

test("address-security: a failing GoPlus is a 502", async (t) => {
  const api = await serveFixtures(t, [goplusAnswer(`/v1/address_security/${FLAGGED}?chain_id=1`, "bad gateway", 502)], {
    reuse: true,
  });
  const out = await (await serviceWith(api.url)).call(addressSecurity, { address: FLAGGED, chain: "ethereum" });
  assert.equal(out.status, 502);
});

test("token-security and address-security: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const path of [
    "/v1/token-security?address=PEPE",
    `/v1/token-security?address=${PEPE}&chain=eth`,
    "/v1/address-security?address=0x12&chain=ethereum",
  ]) {
    assert.equal((await service.request(path)).status, 400, path);
  }
  assert.equal(api.calls.length, 0);
});
