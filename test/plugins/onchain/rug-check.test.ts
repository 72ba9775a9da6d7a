import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import rugCheck from "../../../plugins/onchain/rug-check.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { UPSTREAM_GOPLUS_URL: url, UPSTREAM_HONEYPOT_IS_URL: url } });
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const SCAM = "0x1111111111111111111111111111111111111111";
const goplus = (path: string, body: unknown, status = 200): Fixture => ({
  source:
    "https://docs.gopluslabs.io/reference/api-overview (token_security: {code, message, result: {<address>: report}})",
  request: { method: "GET", path },
  response: { status, body },
});
const scamReport = {
  token_name: "Moon Rocket",
  token_symbol: "MOON",
  is_honeypot: "1",
  cannot_sell_all: "1",
  sell_tax: "0.35",
  buy_tax: "0.05",
  is_mintable: "1",
  is_open_source: "0",
  owner_change_balance: "1",
  hidden_owner: "0",
  is_proxy: "0",
  is_in_dex: "1",
  holder_count: "212",
  holders: [
    {
      address: "0x2222222222222222222222222222222222222222",
      tag: "",
      is_contract: 0,
      balance: "700000",
      percent: "0.70",
      is_locked: 0,
    },
  ],
  dex: [
    {
      liquidity_type: "UniV2",
      name: "QuickSwap",
      liquidity: "1520.40",
      pair: "0x3333333333333333333333333333333333333333",
    },
  ],
};

test("rug-check: a clean token scores low, every factor explained with its source", async (t) => {
  const api = await serveFixtures(t, ["goplus.token-security-pepe", "honeypot-is.pepe"], { dir });
  const out = await (await serviceWith(api.url)).call(rugCheck, { address: PEPE });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual([data.score, data.level, data.raised, data.unknownFactors], [5, "low", ["blacklist"], []]);
  const honeypot = data.factors.find((f: any) => f.id === "honeypot")!;
  assert.deepEqual([honeypot.raised, honeypot.source], [false, "honeypot.is simulation"]);
  assert.match(data.factors.find((f: any) => f.id === "holderConcentration")!.detail, /8\.11%/);
  assert.ok(data.factors.every((f: any) => f.source && f.detail && typeof f.points === "number"));
  assert.equal(data.sources.length, 2);
  assert.equal(api.calls.length, 2, "each source read once");
});

test("rug-check: a honeypot with owner powers and thin liquidity scores high (GoPlus alone off honeypot.is chains)", async (t) => {
  const api = await serveFixtures(t, [
    goplus(`/v1/token_security/137?contract_addresses=${SCAM}`, {
      code: 1,
      message: "OK",
      result: { [SCAM]: scamReport },
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(rugCheck, { address: SCAM, chain: "polygon" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.level, "high");
  assert.equal(data.score, 100);
  for (const id of [
    "honeypot",
    "cannotSellAll",
    "sellTax",
    "ownerCanChangeBalance",
    "mintable",
    "closedSource",
    "holderConcentration",
    "thinLiquidity",
  ])
    assert.ok(data.raised.includes(id), id);
  assert.ok(data.unknownFactors.includes("selfDestruct"), "a flag GoPlus left out is unknown, not safe");
  assert.equal(data.factors.find((f: any) => f.id === "honeypot")!.source, "goplus token_security");
});

test("rug-check: honeypot.is failing still answers from GoPlus; GoPlus failing is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "goplus.token-security-pepe",
      {
        source: "honeypot.is outage",
        request: { method: "GET", path: `/v2/IsHoneypot?address=${PEPE}&chainID=1` },
        response: { status: 500, body: "error" },
      },
      {
        source: "honeypot.is outage (retry)",
        request: { method: "GET", path: `/v2/IsHoneypot?address=${PEPE}&chainID=1` },
        response: { status: 500, body: "error" },
      },
      {
        source: "honeypot.is outage (retry)",
        request: { method: "GET", path: `/v2/IsHoneypot?address=${PEPE}&chainID=1` },
        response: { status: 500, body: "error" },
      },
      goplus(`/v1/token_security/137?contract_addresses=${PEPE.toLowerCase()}`, {
        code: 4029,
        message: "too many requests",
        result: null,
      }),
    ],
    { dir },
  );
  const service = await serviceWith(api.url);
  const partial = await service.call(rugCheck, { address: PEPE });
  assert.equal(partial.status, 200, JSON.stringify(partial.body));
  assert.equal(dataOf(partial).factors[0].source, "goplus token_security");
  assert.equal(dataOf(partial).sources.length, 1);
  const failed = await service.call(rugCheck, { address: PEPE, chain: "polygon" });
  assert.equal(failed.status, 502);
});

test("rug-check: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const res = await (await serviceWith(api.url)).request(`/v1/rug-check?address=${PEPE}&chain=solana`);
  assert.equal(res.status, 400);
  assert.ok((await res.json()).error.details.issues.some((i: any) => i.field === "chain"));
  assert.equal(api.calls.length, 0);
});
