import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const mempool = [
  "mempool.tip-height",
  "mempool.difficulty",
  "mempool.fees",
  "mempool.mempool",
  "mempool.prices",
  "mempool.hashrate",
];

test("fear-greed: today's index by default, history on request", async (t) => {
  const { service } = await marketService(t, ["alternative-me.fng-1", "alternative-me.fng-3"]);
  assert.deepEqual(dataOf(await service.call("fear-greed", {})), {
    value: 70,
    classification: "Greed",
    date: "2025-01-15T00:00:00.000Z",
    nextUpdateInSeconds: 43200,
    history: [{ value: 70, classification: "Greed", date: "2025-01-15T00:00:00.000Z" }],
  });
  assert.deepEqual(
    dataOf(await service.call("fear-greed", { days: 3 })).history.map((h: any) => h.value),
    [70, 46, 25],
  );
});

test("fear-greed: alternative.me down is a 502; days out of range is a free 400", async (t) => {
  const { service, api } = await marketService(
    t,
    [failing("/alternative-me/fng/?limit=1&format=json", 500, "https://alternative.me/crypto/fear-and-greed-index/")],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("fear-greed", {}));
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/fear-greed?days=366"), "days");
  assert.equal(api.calls.length, calls);
});

test("btc-stats: every part of the snapshot", async (t) => {
  const { service } = await marketService(t, mempool);
  const data = dataOf(await service.call("btc-stats", {}));
  assert.equal(data.priceUsd, 99430);
  assert.equal(data.blockHeight, 879512);
  assert.deepEqual(data.retarget, {
    progressPercent: 41.2,
    estimatedChangePercent: 1.84,
    remainingBlocks: 1185,
    nextHeight: 880697,
    estimatedDate: "2025-01-23T18:12:00.000Z",
  });
  assert.deepEqual(data.feesSatPerVb, { fastest: 5, halfHour: 4, hour: 3, economy: 2, minimum: 1 });
  assert.equal(data.sources.missing.length, 0);
});

test("btc-stats: a failing part is null and named; all failing is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      ...mempool.filter((f) => f !== "mempool.fees"),
      failing("/mempool-space/v1/fees/recommended", 500, "https://mempool.space/docs/api/rest"),
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("btc-stats", {}));
  assert.equal(data.feesSatPerVb, null);
  assert.equal(data.blockHeight, 879512);
  assert.deepEqual(data.sources.missing, [{ venue: "/v1/fees/recommended", reason: "mempool-space answered 500" }]);
  const paths = [
    "/blocks/tip/height",
    "/v1/difficulty-adjustment",
    "/v1/fees/recommended",
    "/mempool",
    "/v1/prices",
    "/v1/mining/hashrate/3d",
  ];
  const { service: down } = await marketService(
    t,
    paths.map((p) => failing(`/mempool-space${p}`, 502, "https://mempool.space/docs/api/rest")),
    { reuse: true },
  );
  expectUpstreamFailure(await down.call("btc-stats", {}));
});

test("depeg: USD stablecoins over 50 bps off by default, small and unpriced ones aside", async (t) => {
  const { service } = await marketService(t, ["defillama.stablecoins"], { reuse: true });
  const data = dataOf(await service.call("depeg", {}));
  assert.equal(data.thresholdBps, 50);
  assert.equal(data.checked, 3);
  assert.equal(data.unpriced, 1);
  assert.deepEqual(data.depegged, [
    {
      id: "129",
      name: "USDX Money USDX",
      symbol: "USDX",
      price: 0.9712,
      deviationBps: "-288",
      circulatingUsd: 41234567,
      pegMechanism: "crypto-backed",
      url: "https://defillama.com/stablecoin/129",
    },
  ]);
  assert.deepEqual(
    dataOf(await service.call("depeg", { thresholdBps: 1 })).depegged.map((d: any) => [d.symbol, d.deviationBps]),
    [
      ["USDX", "-288"],
      ["USDT", "2"],
      ["USDC", "-1"],
    ],
  );
  assert.deepEqual(
    dataOf(await service.call("depeg", { minCirculating: 0 })).depegged.map((d: any) => d.symbol),
    ["SPEG", "USDX"],
  );
});

test("stablecoin-flows: supply changes per coin and in total, in decimal", async (t) => {
  const { service } = await marketService(t, ["defillama.stablecoins"]);
  const data = dataOf(await service.call("stablecoin-flows", { limit: 2 }));
  assert.deepEqual(
    data.stablecoins.map((s: any) => [s.symbol, s.change1dUsd, s.change7dUsd, s.change30dUsd]),
    [
      ["USDT", "200000000", "1000000000", "3000000000"],
      ["USDC", "-100000000", "200000000", "2000000000"],
    ],
  );
  assert.deepEqual(data.total, {
    circulatingUsd: "183340148145.62",
    change1dUsd: "100000000",
    change7dUsd: "1198000000",
    change30dUsd: "4996000000",
  });
});

test("depeg, stablecoin-flows: DefiLlama down is a 502; bad limits are free 400s", async (t) => {
  const { service, api } = await marketService(
    t,
    [failing("/defillama-stablecoins/stablecoins?includePrices=true", 500, "https://api-docs.defillama.com/")],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("depeg", {}));
  expectUpstreamFailure(await service.call("stablecoin-flows", {}));
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/depeg?thresholdBps=0"), "thresholdBps");
  await expectFree400(await service.request("/v1/stablecoin-flows?limit=101"), "limit");
  assert.equal(api.calls.length, calls);
});

test("tvl: the ranking by default; one chain with its changes", async (t) => {
  const { service } = await marketService(t, ["defillama.chains", "defillama.historical-ethereum"], { reuse: true });
  const all = dataOf(await service.call("tvl", {}));
  assert.equal(all.chain, null);
  assert.deepEqual(
    all.ranking.map((r: any) => r.name),
    ["Ethereum", "Solana", "Base"],
  );
  assert.equal(all.totalTvlUsd, 85259259257.4);
  const eth = dataOf(await service.call("tvl", { chain: "ethereum", limit: 1 }));
  assert.deepEqual(eth.chain, {
    name: "Ethereum",
    tvlUsd: 72123456789.2,
    change1dPercent: "1.1549",
    change7dPercent: "2.3028",
    tokenSymbol: "ETH",
    url: "https://defillama.com/chain/Ethereum",
  });
  assert.equal(eth.ranking.length, 1);
});

test("tvl: an unknown chain is a 404; DefiLlama down is a 502; a bad slug is a free 400", async (t) => {
  const { service } = await marketService(t, ["defillama.chains"]);
  assert.equal((await service.call("tvl", { chain: "atlantis" })).status, 404);
  const { service: down, api } = await marketService(
    t,
    [failing("/defillama/v2/chains", 500, "https://api-docs.defillama.com/")],
    { reuse: true },
  );
  expectUpstreamFailure(await down.call("tvl", {}));
  const calls = api.calls.length;
  await expectFree400(await down.request("/v1/tvl?chain=ETH%2F1"), "chain");
  assert.equal(api.calls.length, calls);
});
