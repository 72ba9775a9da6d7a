import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const GT_DOCS = "https://apiguide.geckoterminal.com/faq (429 above 30 calls/min)";

test("new-pairs: pools younger than maxAgeMin (60 by default), newest first", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["geckoterminal.new-pools-base"]);
  const data = dataOf(await service.call("new-pairs", { chain: "base" }));
  assert.equal(data.maxAgeMin, 60);
  assert.deepEqual(
    data.pools.map((p: any) => p.name),
    ["BLOB / WETH", "CAT / WETH"],
  );
  assert.deepEqual(data.pools[0], {
    chain: "base",
    pool: "0x8f1a3a5c0e2d7b44a6a0f6e1b1d3a9c2e4f5a6b7",
    name: "BLOB / WETH",
    dex: "uniswap-v3-base",
    baseToken: "0x4b2c1d3e5f60718293a4b5c6d7e8f90112233445",
    quoteToken: "0x4200000000000000000000000000000000000006",
    priceUsd: "0.000412331",
    priceChange1hPercent: "35.2",
    priceChange24hPercent: "35.2",
    volume24hUsd: "18210.55",
    liquidityUsd: "24120.8012",
    txns24h: 143,
    createdAt: "2025-01-15T11:52:11.000Z",
    url: "https://www.geckoterminal.com/base/pools/0x8f1a3a5c0e2d7b44a6a0f6e1b1d3a9c2e4f5a6b7",
    source: "geckoterminal",
  });
});

test("new-pairs: maxAgeMin widens the window, limit caps it", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["geckoterminal.new-pools-base"], { reuse: true });
  assert.equal(dataOf(await service.call("new-pairs", { chain: "base", maxAgeMin: 180 })).pools.length, 3);
  assert.equal(dataOf(await service.call("new-pairs", { chain: "base", maxAgeMin: 180, limit: 1 })).pools.length, 1);
  assert.equal(dataOf(await service.call("new-pairs", { chain: "base", maxAgeMin: 5 })).pools.length, 0);
});

test("new-pairs: GeckoTerminal throttling is a 502", async (t) => {
  const { service } = await marketService(t, [failing("/geckoterminal/networks/eth/new_pools?page=1", 429, GT_DOCS)], {
    reuse: true,
  });
  expectUpstreamFailure(await service.call("new-pairs", {}));
});

test("new-pairs: chain, limit 1-20 and maxAgeMin 1-10080 are checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/new-pairs?chain=tron"), "chain");
  await expectFree400(await service.request("/v1/new-pairs?limit=21"), "limit");
  await expectFree400(await service.request("/v1/new-pairs?limit=0"), "limit");
  await expectFree400(await service.request("/v1/new-pairs?maxAgeMin=0"), "maxAgeMin");
  await expectFree400(await service.request("/v1/new-pairs?maxAgeMin=10081"), "maxAgeMin");
  assert.equal(api.calls.length, 0);
});
