import { test } from "node:test";
import type { InputOf } from "../../helpers/service.ts";
import assert from "node:assert/strict";
import {
  crossChain,
  depositor,
  feeRecipient,
  fixtureBody,
  lifiFeeWallet,
  sameChain,
  swapService,
  usdcBase,
} from "./_service.ts";
import { dataOf, errorOf, issuesOf } from "../../helpers/expect.ts";
import swapCompare from "../../../plugins/swap/swap-compare.ts";
import swapEndpoint from "../../../plugins/swap/swap.ts";

const crossRace = [
  "relay.cross-usdc",
  "lifi.cross-usdc",
  "across.cross-usdc-hangs",
  "debridge.cross-usdc",
  "defillama.usdc-base-and-eth",
];

test("swap: cross-chain race, best net quote wins, a hanging aggregator is left behind at the deadline", async (t) => {
  const { api, service } = await swapService(t, crossRace);
  const started = Date.now();
  const out = await service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.ok(Date.now() - started < 3000, "the answer did not wait for the hanging aggregator");
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const { meta, data } = out.body as any;
  assert.equal(meta.product, "swap");
  assert.equal(data.source, "relay");
  const relay = await fixtureBody("relay.cross-usdc");
  assert.deepEqual(data.transaction, {
    chainId: 8453,
    to: relay.steps[1].items[0].data.to,
    data: relay.steps[1].items[0].data.data,
    value: "0",
  });
  assert.deepEqual(data.quote.amountOut, "99870000");
  assert.equal(data.quote.minAmountOut, "99370650");
  assert.equal(data.quote.estimatedFillTimeSeconds, 4);
  assert.ok(Date.parse(data.quote.quoteExpiresAt) > Date.now());
  assert.deepEqual(data.approval, {
    token: usdcBase,
    spender: "0x4cD00E387622C35bDDB9b4c962C136462338BC31",
    amount: "100000000",
    resetFirst: false,
  });
  assert.deepEqual(data.fees.relay, { total: "30000", token: usdcBase, totalUsd: 0.03 });
  assert.deepEqual(data.fees.integrator, {
    included: true,
    feeBps: 10,
    amount: "100000",
    amountUsd: 0.1,
    token: usdcBase,
    recipient: feeRecipient,
  });
  // deBridge quotes more (99.9 USDC) but its fixed 0.001 ETH fee (about $3) puts it last once netted.
  assert.deepEqual(data.comparison, [
    { rank: 1, source: "relay", amountOut: "99870000", netAmountOut: "99870000", estimateSec: 4, winner: true },
    { rank: 2, source: "lifi", amountOut: "99640000", netAmountOut: "99640000", estimateSec: 60 },
    { rank: 3, source: "debridge", amountOut: "99900000", netAmountOut: "96899880", estimateSec: 3 },
  ]);
  assert.deepEqual(
    data.alternatives.map((a: any) => a.source),
    ["lifi", "debridge"],
  );
  assert.deepEqual(data.skipped, [{ source: "across", reason: "deadline", message: "no answer within 800 ms" }]);
  assert.match(data.disclaimer, /non-custodial/);
  assert.ok(data.fees.breakdown.some((line: string) => line.startsWith("Approve 100000000")));
  assert.equal(api.calls.length, 5);
});

test("swap: the integrator fee goes to each aggregator in its own unit", async (t) => {
  const { api, service } = await swapService(t, crossRace);
  assert.equal((await service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>)).status, 200);
  const sent = (prefix: string) => api.calls.find((c) => c.path.startsWith(prefix))!;
  assert.deepEqual(JSON.parse(sent("/relay/").body).appFees, [{ recipient: feeRecipient, fee: "10" }]);
  const query = (prefix: string) => new URL(sent(prefix).path, "http://x").searchParams;
  assert.equal(query("/lifi/").get("fee"), "0.001");
  assert.equal(query("/across/").get("appFee"), "0.001");
  assert.equal(query("/across/").get("appFeeRecipient"), feeRecipient);
  assert.equal(query("/debridge/").get("affiliateFeePercent"), "0.1");
  assert.equal(query("/debridge/").get("affiliateFeeRecipient"), feeRecipient);
});

test("swap: aggregators that error are skipped and the one that answers wins", async (t) => {
  const { service } = await swapService(t, [
    "relay.cross-usdc-fails",
    "lifi.cross-usdc-no-route",
    "across.cross-usdc",
    "debridge.cross-usdc-refused",
    "defillama.usdc-base-and-eth",
  ]);
  const out = await service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  const across = await fixtureBody("across.cross-usdc");
  assert.equal(data.source, "across");
  assert.equal(data.transaction.data, across.swapTx.data);
  assert.equal(data.quote.amountOut, "99895000");
  assert.deepEqual(data.fees.across, { total: "5000", token: usdcBase, totalUsd: 0.005 });
  assert.deepEqual(data.fees.integrator, {
    included: true,
    feeBps: 10,
    amount: "100000",
    amountUsd: 0.1,
    token: usdcBase,
    recipient: feeRecipient,
  });
  assert.deepEqual(data.alternatives, []);
  assert.deepEqual(data.skipped.map((s: any) => [s.source, s.reason]).sort(), [
    ["debridge", "error"],
    ["lifi", "error"],
    ["relay", "error"],
  ]);
});

test("swap: same-chain races Relay, LI.FI and KyberSwap, never the bridges", async (t) => {
  const { api, service } = await swapService(t, [
    "relay.same-eth-usdc",
    "lifi.same-eth-usdc",
    "kyberswap.routes-eth-usdc",
    "kyberswap.build-eth-usdc",
    "defillama.eth",
  ]);
  const out = await service.call(swapEndpoint, sameChain as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  const built = await fixtureBody("kyberswap.build-eth-usdc");
  assert.equal(data.source, "kyberswap");
  assert.deepEqual(data.transaction, {
    chainId: 8453,
    to: built.data.routerAddress,
    data: built.data.data,
    value: "10000000000000000",
  });
  assert.equal(data.quote.minAmountOut, "29820150");
  assert.equal(data.approval, null);
  assert.deepEqual(data.fees.integrator, {
    included: true,
    feeBps: 10,
    amount: "10000000000000",
    amountUsd: 0.03,
    token: sameChain.fromToken,
    recipient: feeRecipient,
  });
  assert.deepEqual(
    data.comparison.map((c: any) => c.source),
    ["kyberswap", "relay", "lifi"],
  );
  const lifi = data.alternatives.find((a: any) => a.source === "lifi")!;
  assert.deepEqual(lifi.quote, { amountOut: "29880000", estimatedFillTimeSeconds: 0 });
  assert.ok(!api.calls.some((c) => c.path.startsWith("/across") || c.path.startsWith("/debridge")));
  const routes = new URL(api.calls.find((c) => c.path.includes("/routes"))!.path, "http://x").searchParams;
  assert.equal(routes.get("tokenIn"), "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE");
  assert.equal(routes.get("feeAmount"), "10");
  assert.equal(routes.get("isInBps"), "true");
});

test("swap/compare: every answered route with its full quote, best first", async (t) => {
  const { service } = await swapService(t, crossRace);
  const out = await service.call(swapCompare, crossChain as InputOf<typeof swapCompare>);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    data.quotes.map((q: any) => [q.rank, q.source, q.winner]),
    [
      [1, "relay", true],
      [2, "lifi", false],
      [3, "debridge", false],
    ],
  );
  const debridge = await fixtureBody("debridge.cross-usdc");
  assert.deepEqual(data.quotes[2].transaction, {
    chainId: 8453,
    to: debridge.tx.to,
    data: debridge.tx.data,
    value: "1000000000000000",
  });
  assert.deepEqual(data.quotes[1].fees.lifi, { total: "260000", token: usdcBase, totalUsd: 0.26 });
  // LI.FI pays the wallet registered in its portal, not SWAP_FEE_RECIPIENT: the answer names that wallet.
  assert.equal(data.quotes[1].fees.integrator.recipient, lifiFeeWallet);
  assert.equal(data.quotes[0].fees.integrator.recipient, feeRecipient);
  assert.equal(data.comparison[0].winner, true);
  assert.deepEqual(
    data.skipped.map((s: any) => s.source),
    ["across"],
  );
});

test("swap: no aggregator answering in time is a 504, all failing a 502, neither charged", async (t) => {
  const hang = (name: string) => async () => ({
    ...(await import(new URL(`./fixtures/${name}.json`, import.meta.url).href, { with: { type: "json" } })).default,
  });
  const slow = await Promise.all(
    ["relay.cross-usdc", "lifi.cross-usdc", "across.cross-usdc", "debridge.cross-usdc"].map(async (n) => {
      const f = await hang(n)();
      return { ...f, response: { ...f.response, delayMs: 4000 } };
    }),
  );
  const late = await swapService(t, [...slow, "defillama.usdc-base-and-eth"]);
  const timedOut = await late.service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.equal(timedOut.status, 504);
  assert.equal(errorOf<{ skipped: unknown[] }>(timedOut).details?.skipped.length, 4);

  const failing = await swapService(t, [
    "relay.cross-usdc-fails",
    "lifi.cross-usdc-no-route",
    "debridge.cross-usdc-refused",
    "defillama.usdc-base-and-eth",
    {
      source: "https://docs.across.to/reference/api-reference (errors answer a JSON {type, code, status, message})",
      request: {
        method: "GET",
        path: new URL(slow[2].request.path, "http://x").pathname + new URL(slow[2].request.path, "http://x").search,
      },
      response: {
        status: 400,
        body: {
          type: "AcrossApiError",
          code: "AMOUNT_TOO_LOW",
          status: 400,
          message: "Sent amount is too low relative to fees",
        },
      },
    },
  ]);
  const failed = await failing.service.call(swapEndpoint, crossChain as InputOf<typeof swapEndpoint>);
  assert.equal(failed.status, 502);
  assert.equal(errorOf(failed).code, "upstream_error");
});

test("swap: feeBps=0 asks no aggregator for a fee", async (t) => {
  const { api, service } = await swapService(
    t,
    [
      "relay.same-eth-usdc",
      "lifi.same-eth-usdc",
      "kyberswap.routes-eth-usdc",
      "kyberswap.build-eth-usdc",
      "defillama.eth",
    ].map((name) => name),
    { reuse: true },
  );
  // The fixtures expect the fee, so nothing matches: every aggregator fails, which is the point (no fee parameters were sent).
  const out = await service.call(swapEndpoint, { ...sameChain, feeBps: 0 } as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 502);
  const relayBody = JSON.parse(api.calls.find((c) => c.path.startsWith("/relay/"))!.body);
  assert.equal(relayBody.appFees, undefined);
  const kyber = new URL(api.calls.find((c) => c.path.includes("/routes"))!.path, "http://x").searchParams;
  assert.equal(kyber.get("feeAmount"), null);
  assert.equal(
    new URL(api.calls.find((c) => c.path.startsWith("/lifi/"))!.path, "http://x").searchParams.get("fee"),
    null,
  );
  api.unmatched.length = 0;
});

test("swap: bad input is a free 400 naming the field, before any upstream call", async (t) => {
  const { api, service } = await swapService(t, []);
  const q = (over: Record<string, string | number>) =>
    new URLSearchParams(Object.entries({ ...crossChain, ...over }).map(([k, v]) => [k, String(v)]));
  const cases: [Record<string, string | number>, string][] = [
    [{ fromChain: 5 }, "fromChain"],
    [{ toChain: "base" }, "toChain"],
    [{ fromToken: "0x1234" }, "fromToken"],
    [{ amount: "1.5" }, "amount"],
    [{ amount: "-3" }, "amount"],
    [{ feeBps: 51 }, "feeBps"],
    [{ depositor: "vitalik.eth" }, "depositor"],
  ];
  for (const [over, field] of cases) {
    const res = await service.request(`/v1/swap?${q(over)}`);
    assert.equal(res.status, 400, JSON.stringify(over));
    const body = await res.json();
    assert.ok(
      body.error.details.issues.some((i: any) => i.field === field),
      JSON.stringify(body),
    );
  }
  const { depositor: _, ...anonymous } = crossChain;
  const out = await service.call(swapEndpoint, anonymous as InputOf<typeof swapEndpoint>);
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "depositor");
  assert.equal(api.calls.length, 0);
  assert.equal(depositor.length, 42);
});
