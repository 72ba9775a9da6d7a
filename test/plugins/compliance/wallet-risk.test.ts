import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startAnvil, type Anvil } from "../../../core/x402/devnet/anvil.ts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import walletRisk from "../../../plugins/compliance/wallet-risk.ts";

const dir = new URL("./fixtures/", import.meta.url);
const lists = ["ofac-sdn.excerpt", "eu-fsf.excerpt", "un-sc.excerpt", "uk-sanctions.excerpt"];
const lazarus = "0x098B716B8Aaf21512996dC57EB0615e2383E2f96";
const funded = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const fresh = "0x00000000000000000000000000000000000000A1";

let anvil: Anvil;
before(async () => {
  anvil = await startAnvil({ chainId: 1 });
  await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setNonce", params: [lazarus, "0xa7"] }),
  });
});
after(async () => {
  await anvil.stop();
});

async function setup(t: { after(fn: () => unknown): void }, goplus: string[]) {
  const api = await serveFixtures(t, [...lists, ...goplus], { dir });
  const service = await startTestService({
    plugins: ["compliance"],
    env: {
      UPSTREAM_OFAC_SDN_URL: `${api.url}/ofac`,
      UPSTREAM_EU_FSF_URL: `${api.url}/eu`,
      UPSTREAM_UN_SC_URL: `${api.url}/un`,
      UPSTREAM_UK_SANCTIONS_URL: `${api.url}/uk`,
      UPSTREAM_GOPLUS_URL: `${api.url}/goplus`,
      UPSTREAM_ETHEREUM_RPC_URL: anvil.rpcUrl,
    },
  });
  return { api, service };
}

const byName = (factors: any[]) => Object.fromEntries(factors.map((f) => [f.name, f]));

test("wallet-risk: a sanctioned address scores 100 with every factor explained", async (t) => {
  const { service } = await setup(t, ["goplus.address-security-lazarus"]);
  const out = await service.call(walletRisk, { address: lazarus.toLowerCase(), chain: "ethereum" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.address, data.txCount, data.isContract, data.score, data.band],
    [lazarus, 167, false, 100, "severe"],
  );
  const f = byName(data.factors);
  assert.equal(f["ofac-listed-address"].value, "listed on ofac-sdn: LAZARUS GROUP (id 23036; DPRK3)");
  assert.match(f["ofac-listed-address"].source, /published 2026-11-20 \(.*\/ofac\/SDN\.XML\)/);
  assert.deepEqual(
    [f["goplus-sanctioned"].points, f["goplus-malicious-activity"].value, f.mixer.points],
    [90, "theft", 0],
  );
  assert.equal(f["goplus-sanctioned"].source, "GoPlus Security address_security (data from OFAC, SlowMist)");
  for (const factor of data.factors) {
    assert.equal(factor.points, factor.triggered ? factor.weight : 0, factor.name);
    assert.ok(factor.explanation.length > 10 && factor.source.length > 5, factor.name);
  }
  assert.deepEqual(Object.keys(f).sort(), [
    "goplus-blacklist-doubt",
    "goplus-malicious-activity",
    "goplus-sanctioned",
    "malicious-contracts-created",
    "mixer",
    "no-history",
    "ofac-listed-address",
  ]);
});

test("wallet-risk: nothing known against a funded wallet is a low score of 0", async (t) => {
  const { service } = await setup(t, ["goplus.address-security-clean"]);
  const data = dataOf(await service.call(walletRisk, { address: funded }));
  assert.deepEqual([data.score, data.band, data.factors.filter((f: any) => f.triggered).length], [0, "low", 0]);
  assert.equal(byName(data.factors)["ofac-listed-address"].value, "not among 3 listed addresses");
  assert.equal(byName(data.factors)["no-history"].value, "0 transactions sent, balance 10000 ETH");
});

test("wallet-risk: mixer use, blacklist doubt and no history add up to high", async (t) => {
  const { service } = await setup(t, ["goplus.address-security-mixer"]);
  const data = dataOf(await service.call(walletRisk, { address: fresh }));
  assert.deepEqual(
    data.factors.filter((f: any) => f.triggered).map((f: any) => [f.name, f.points]),
    [
      ["mixer", 40],
      ["goplus-blacklist-doubt", 20],
      ["no-history", 10],
    ],
  );
  assert.deepEqual([data.score, data.band], [70, "high"]);
});

test("wallet-risk: GoPlus failing is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      ...lists,
      {
        source: "https://docs.gopluslabs.io/reference/api-overview (rate limited: HTTP 200 with code 4029)",
        request: { method: "GET", path: `/goplus/v1/address_security/${funded}?chain_id=1` },
        response: { status: 200, body: { code: 4029, message: "too many requests", result: null } },
      },
    ],
    { dir },
  );
  const service = await startTestService({
    plugins: ["compliance"],
    env: {
      UPSTREAM_OFAC_SDN_URL: `${api.url}/ofac`,
      UPSTREAM_EU_FSF_URL: `${api.url}/eu`,
      UPSTREAM_UN_SC_URL: `${api.url}/un`,
      UPSTREAM_UK_SANCTIONS_URL: `${api.url}/uk`,
      UPSTREAM_GOPLUS_URL: `${api.url}/goplus`,
    },
  });
  const out = await service.call(walletRisk, { address: funded });
  assert.equal(out.status, 502);
});

test("wallet-risk: bad addresses and chains are a 400 before anything is called", async (t) => {
  const { api, service } = await setup(t, []);
  for (const query of [
    "",
    `address=0x123`,
    `address=${lazarus}00`,
    `address=${lazarus}&chain=solana`,
    `address=bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh`,
  ]) {
    const res = await service.request(`/v1/wallet-risk?${query}`);
    assert.equal(res.status, 400, query);
  }
  assert.equal(api.calls.length, 0);
});
