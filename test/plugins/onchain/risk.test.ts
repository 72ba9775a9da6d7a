import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import dappSecurity from "../../../plugins/onchain/dapp-security.ts";
import honeypotCheck from "../../../plugins/onchain/honeypot-check.ts";
import nftSecurity from "../../../plugins/onchain/nft-security.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { UPSTREAM_GOPLUS_URL: url, UPSTREAM_HONEYPOT_IS_URL: url } });
const BAYC = "0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D";
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const answer = (source: string, path: string, body: unknown, status = 200): Fixture => ({
  source,
  request: { method: "GET", path },
  response: { status, body },
});
const goplusDoc = "https://docs.gopluslabs.io/reference/api-overview ({code, message, result}; code 1 is success)";
const honeypotDoc = "https://docs.honeypot.is/ishoneypot (GET /v2/IsHoneypot)";

test("nft-security: flags, held privileges with their holder, raised risks", async (t) => {
  const api = await serveFixtures(t, ["goplus.nft-security-bayc"], { dir });
  const out = await (await serviceWith(api.url)).call(nftSecurity, { address: BAYC, chain: "ethereum" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.name, data.symbol, data.standard, data.items, data.holders],
    ["BoredApeYachtClub", "BAYC", "erc721", 10000, 5512],
  );
  assert.deepEqual(data.flags, {
    malicious: false,
    openSource: true,
    proxy: false,
    restrictedApproval: false,
    oversupplyMinting: null,
    verified: true,
    trusted: true,
  });
  assert.deepEqual(data.privileges.privilegedMinting, {
    present: true,
    owner: "0xaba7161a7fb69c88e16ed9f455ce62b791ee4d03",
    ownerType: "eoa",
  });
  assert.equal(data.privileges.selfDestruct.present, false);
  assert.deepEqual(data.risks, ["privilegedMinting"]);
});

test("nft-security: no report is a 404; a GoPlus error code a 502", async (t) => {
  const path = `/v1/nft_security/137?contract_addresses=${BAYC.toLowerCase()}`;
  const api = await serveFixtures(t, [
    answer(goplusDoc, path, { code: 1, message: "OK", result: {} }),
    answer(goplusDoc, path, { code: 4029, message: "too many requests", result: null }),
  ]);
  const service = await serviceWith(api.url);
  assert.equal((await service.call(nftSecurity, { address: BAYC, chain: "polygon" })).status, 404);
  assert.equal((await service.call(nftSecurity, { address: BAYC, chain: "polygon" })).status, 502);
});

test("dapp-security: audits, trust list and contracts with dates", async (t) => {
  const api = await serveFixtures(t, ["goplus.dapp-security-fortube"], { dir });
  const out = await (await serviceWith(api.url)).call(dappSecurity, { url: "https://for.tube" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual([data.project, data.trusted, data.audited, data.maliciousContracts], ["ForTube", true, true, 0]);
  assert.deepEqual(data.audits, [
    { firm: "CertiK", date: "2021-07-18", link: "https://www.certik.com/projects/fortube" },
  ]);
  assert.equal(data.contracts[0].chainId, 56);
  assert.equal(data.contracts[0].deployedAt, "2021-07-18T03:19:05.000Z");
});

test("dapp-security: an unlisted site is a 404, not 'safe'", async (t) => {
  const api = await serveFixtures(t, [
    answer(goplusDoc, "/v1/dapp_security?url=example.org", { code: 1, message: "OK", result: null }),
  ]);
  assert.equal((await (await serviceWith(api.url)).call(dappSecurity, { url: "example.org" })).status, 404);
});

test("honeypot-check: simulation verdict, taxes, holder sell tests and pair", async (t) => {
  const api = await serveFixtures(t, ["honeypot-is.pepe"], { dir });
  const out = await (await serviceWith(api.url)).call(honeypotCheck, { address: PEPE.toLowerCase() });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.chain, data.address, data.simulated, data.isHoneypot, data.risk],
    ["ethereum", PEPE, true, false, "low"],
  );
  assert.deepEqual([data.buyTaxPercent, data.sellTaxPercent, data.buyGas, data.sellGas], [0, 0, 128953, 106290]);
  assert.deepEqual(data.holders, {
    tested: 1250,
    canSell: 1248,
    cannotSell: 2,
    siphoned: 0,
    averageTaxPercent: 0,
    highestTaxPercent: 0,
  });
  assert.deepEqual(data.pair, {
    address: "0xA43fe16908251ee70EF74718545e4FE6C5cCEc9f",
    name: "Uniswap V2: PEPE-WETH",
    type: "UniswapV2",
    liquidityUsd: 28914236.5,
    createdAt: "2023-04-14T18:37:11.000Z",
  });
});

test("honeypot-check: a failed simulation is unknown, not safe; an unknown token a 404", async (t) => {
  const path = `/v2/IsHoneypot?address=${PEPE}&chainID=8453`;
  const api = await serveFixtures(t, [
    answer(honeypotDoc, path, {
      token: { name: "Pepe", symbol: "PEPE", decimals: 18, address: PEPE, totalHolders: 12 },
      summary: null,
      simulationSuccess: false,
      simulationError: "No liquidity found",
      honeypotResult: null,
      simulationResult: null,
      flags: [],
    }),
    answer(honeypotDoc, `/v2/IsHoneypot?address=${BAYC}&chainID=8453`, { error: "Token not found" }, 404),
  ]);
  const service = await serviceWith(api.url);
  const unknown = await service.call(honeypotCheck, { address: PEPE, chain: "base" });
  assert.equal(unknown.status, 200, JSON.stringify(unknown.body));
  assert.deepEqual(
    [dataOf(unknown).simulated, dataOf(unknown).isHoneypot, dataOf(unknown).simulationError],
    [false, null, "No liquidity found"],
  );
  assert.equal((await service.call(honeypotCheck, { address: BAYC, chain: "base" })).status, 404);
});

test("honeypot-check: an outage is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [answer(honeypotDoc, `/v2/IsHoneypot?address=${PEPE}&chainID=56`, "bad gateway", 502)],
    { reuse: true },
  );
  const out = await (await serviceWith(api.url)).call(honeypotCheck, { address: PEPE, chain: "bsc" });
  assert.equal(out.status, 502);
});

test("nft-security, dapp-security, honeypot-check: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  const cases = [
    ["/v1/nft-security?address=BAYC", "address"],
    [`/v1/honeypot-check?address=${PEPE}&chain=polygon`, "chain"],
    ["/v1/dapp-security?url=not%20a%20site", "url"],
  ];
  for (const [path, field] of cases) {
    const res = await service.request(path);
    assert.equal(res.status, 400, path);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      path,
    );
  }
  assert.equal(api.calls.length, 0);
});
