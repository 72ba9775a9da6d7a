import { test } from "node:test";
import type { InputOf } from "../../helpers/service.ts";
import assert from "node:assert/strict";
import { encodeFunctionData, erc20Abi, type Address } from "viem";
import { loadFixture, type Fixture } from "../../helpers/fixtures.ts";
import { crossChain, dir, fixtureBody, swapService, usdcBase } from "./_service.ts";
import { dataOf } from "../../helpers/expect.ts";
import swapCompare from "../../../plugins/swap/swap-compare.ts";
import swapEndpoint from "../../../plugins/swap/swap.ts";

/** DefiLlama down: the swap still quotes, without USD prices of its own. */
const pricesDown: Fixture = {
  source: "https://defillama.com/docs/api (coins: GET /prices/current/{coins}); an outage answered as a 502",
  request: {
    method: "GET",
    path: "/llama/prices/current/base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913,coingecko:ethereum",
  },
  response: { status: 502, body: { message: "Bad Gateway" } },
};

async function withQuery(name: string, extra: Record<string, string>): Promise<Fixture> {
  const fixture = await loadFixture(name, dir);
  const url = new URL(fixture.request.path, "http://x");
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return { ...fixture, request: { ...fixture.request, path: url.pathname + url.search } };
}

test("swap: with USD prices down, deBridge's native fee is valued through another quote's own ETH price and the route that leaves more wins", async (t) => {
  const { api, service } = await swapService(
    t,
    ["relay.cross-usdc", "lifi.cross-usdc", "across.cross-usdc-hangs", "debridge.cross-usdc", pricesDown],
    { reuse: true },
  );
  const out = await service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  // deBridge quotes 99.90 USDC but adds 0.001 ETH to the value. Relay's gas line prices ETH at 0.004294 USD per
  // 1431210000000 wei (LI.FI's at 3000.12; the higher is used): 3.0002585 USD, 3000259 USDC units at deBridge's rate.
  assert.deepEqual(
    data.comparison.map((c: any) => [c.source, c.amountOut, c.netAmountOut]),
    [
      ["relay", "99870000", "99870000"],
      ["lifi", "99640000", "99640000"],
      ["debridge", "99900000", "96899741"],
    ],
  );
  assert.equal(data.source, "relay");
  assert.ok(
    api.calls.some((c) => c.path.startsWith("/llama/")),
    "prices were asked for and failed",
  );
});

test("swap/compare: a native fee no price can value ranks its route last, with netAmountOut null and the reason", async (t) => {
  const lifi = await loadFixture("lifi.cross-usdc", dir);
  const body = structuredClone(lifi.response.body) as any;
  delete body.estimate.gasCosts;
  const across = await withQuery("across.cross-usdc", { integratorId: "0xdead" });
  const permitShaped = structuredClone(across.response.body) as any;
  permitShaped.swapTx = {
    ecosystem: "evm-gasless",
    chainId: 8453,
    to: "0x10D8b8DaA26d307489803e10477De69C0492B610",
    data: { type: "permit", typedData: { primaryType: "Permit", domain: { chainId: 8453 }, message: {} } },
  };
  const { api, service } = await swapService(
    t,
    [
      "relay.cross-usdc-fails",
      { ...lifi, response: { ...lifi.response, body } },
      {
        ...across,
        source: `${across.source}; swapTx as https://docs.across.to/api-reference/gasless/submit/post shows it (ecosystem evm-gasless, data.type)`,
        response: { ...across.response, body: permitShaped },
      },
      await withQuery("debridge.cross-usdc", { referralCode: "30830" }),
      pricesDown,
    ],
    {
      reuse: true,
      env: {
        UPSTREAM_ACROSS_KEY: "test-across-key",
        SWAP_ACROSS_INTEGRATOR_ID: "0xdead",
        SWAP_DEBRIDGE_REFERRAL_CODE: "30830",
      },
    },
  );
  const out = await service.call(swapCompare, crossChain as InputOf<typeof swapCompare>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    data.comparison.map((c: any) => [c.rank, c.source, c.netAmountOut, c.unvaluedCosts]),
    [
      [1, "lifi", "99640000", undefined],
      [2, "debridge", null, ["deBridge fixed fee in the transaction value"]],
    ],
  );
  const debridge = data.quotes.find((q: any) => q.source === "debridge")!;
  assert.equal(debridge.quote.netAmountOut, null);
  assert.ok(debridge.fees.breakdown.some((l: string) => /no price available values it/.test(l)));
  const skipped = data.skipped.find((s: any) => s.source === "across")!;
  assert.match(skipped.message, /signature to collect \(evm-gasless\)/);
  const acrossCall = api.calls.find((c) => c.path.startsWith("/across/"))!;
  assert.equal(acrossCall.headers.authorization, "Bearer test-across-key");
  assert.equal(new URL(acrossCall.path, "http://x").searchParams.get("integratorId"), "0xdead");
  const debridgeCall = api.calls.find((c) => c.path.startsWith("/debridge/"))!;
  assert.equal(new URL(debridgeCall.path, "http://x").searchParams.get("referralCode"), "30830");
});

test("swap: Relay's allowance step named approval, resetting to 0 then approving, is one approval with resetFirst", async (t) => {
  const relay = await loadFixture("relay.cross-usdc", dir);
  const body = structuredClone(relay.response.body) as any;
  const spender = "0x4cD00E387622C35bDDB9b4c962C136462338BC31" as Address;
  const approve = (amount: bigint) =>
    encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, amount] });
  const [step] = body.steps;
  step.id = "approval";
  step.items = [0n, 100000000n].map((amount) => ({
    ...step.items[0],
    data: { ...step.items[0].data, data: approve(amount) },
  }));
  const { service } = await swapService(t, [
    {
      ...relay,
      source: `${relay.source}; an approval step of two items (reset to 0, then the amount) as Relay sends for tokens such as USDT`,
      response: { ...relay.response, body },
    },
    "lifi.cross-usdc-no-route",
    "across.cross-usdc-hangs",
    "debridge.cross-usdc-refused",
    "defillama.usdc-base-and-eth",
  ]);
  const out = await service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.source, "relay");
  assert.deepEqual(data.approval, { token: usdcBase, spender, amount: "100000000", resetFirst: true });
  const deposit = (await fixtureBody("relay.cross-usdc")).steps[1].items[0].data;
  assert.equal(data.transaction.data, deposit.data, "the swap is the deposit step, never an approval item");
  assert.ok(data.fees.breakdown.some((l: string) => /approve 0 first/.test(l)));
});

test("swap: LI.FI's approvalReset becomes resetFirst; without SWAP_LIFI_FEE_WALLET LI.FI is asked for no fee", async (t) => {
  const lifi = await loadFixture("lifi.cross-usdc", dir);
  const body = structuredClone(lifi.response.body) as any;
  body.estimate.approvalReset = true;
  const url = new URL(lifi.request.path, "http://x");
  url.searchParams.delete("fee");
  const { api, service } = await swapService(
    t,
    [
      "relay.cross-usdc-fails",
      {
        ...lifi,
        source: `${lifi.source}; estimate.approvalReset as the LI.FI SDK's Estimate type has it`,
        request: { ...lifi.request, path: url.pathname + url.search },
        response: { ...lifi.response, body },
      },
      "across.cross-usdc-hangs",
      "debridge.cross-usdc-refused",
      "defillama.usdc-base-and-eth",
    ],
    { env: { SWAP_LIFI_FEE_WALLET: "" } },
  );
  const out = await service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.source, "lifi");
  assert.equal(data.approval!.resetFirst, true);
  assert.equal(data.fees.integrator.included, false, "no fee is claimed for a wallet nobody configured");
  const sent = new URL(api.calls.find((c) => c.path.startsWith("/lifi/"))!.path, "http://x").searchParams;
  assert.equal(sent.get("fee"), null);
});
