import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const THEN = NOW / 1000 - 30 * 86_400;
const LLAMA_DOCS = "https://api-docs.defillama.com/#tag/coins";

test("impermanent-loss-live: ETH/USDC on ethereum over 30 days by default, fee APR from the deepest matching pool", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, [
    "defillama.historical-eth-usdc-30d",
    "defillama.current-eth-usdc",
    "defillama.yield-pools",
  ]);
  const data = dataOf(await service.call("impermanent-loss-live", {}));
  assert.equal(data.pair, "ETH/USDC");
  assert.equal(data.chain, "ethereum");
  assert.equal(data.days, 30);
  assert.deepEqual(data.pricesUsd, { then: ["3950.12", "1"], now: ["3301.1", "0.9999"] });
  // USDC-WETH on uniswap-v3 (WETH counts as ETH); PEPE-WETH does not match
  assert.equal(data.feePool.project, "uniswap-v3");
  assert.equal(data.feePool.apyBase, 18.4);
  // (3301.1 / 0.9999) / (3950.12 / 1)
  assert.equal(data.result.priceRatio, "0.83577971");
  assert.equal(data.result.impermanentLossPercent, "-0.400917");
  assert.equal(data.result.amount, "1000");
  assert.equal(data.result.feeIncome, "15.12328767");
  assert.deepEqual(data.sources, { answered: ["defillama-coins", "defillama-yields"], missing: [] });
});

test("impermanent-loss-live: DefiLlama prices down falls back to CoinGecko's chart and says so", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [
      failing(`/defillama-coins/prices/historical/${THEN}/coingecko:ethereum,coingecko:usd-coin`, 500, LLAMA_DOCS),
      failing("/defillama-coins/prices/current/coingecko:ethereum,coingecko:usd-coin", 500, LLAMA_DOCS),
      "coingecko.market-chart-ethereum-30d",
      "coingecko.market-chart-usd-coin-30d",
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("impermanent-loss-live", { pair: "weth-usdc", feeApr: 10, lpAmount: 5000 }));
  assert.deepEqual(data.pricesUsd, { then: ["3948", "1.0001"], now: ["3302", "1"] });
  assert.equal(data.feePool, null);
  assert.equal(data.result.amount, "5000");
  assert.equal(data.result.feeIncome, "41.09589041");
  assert.deepEqual(data.sources.answered, ["coingecko"]);
  assert.equal(data.sources.missing[0].venue, "defillama-coins");
});

test("impermanent-loss-live: priceChangePercent and feeApr skip every read", async (t) => {
  const { service, api } = await marketService(t, []);
  const data = dataOf(await service.call("impermanent-loss-live", { priceChangePercent: 100, feeApr: 0, days: 30 }));
  assert.equal(data.result.impermanentLossPercent, "-5.719096");
  assert.equal(data.pricesUsd, null);
  assert.deepEqual(data.sources, { answered: [], missing: [] });
  assert.equal(api.calls.length, 0);
});

test("impermanent-loss-live: every price source down is a 502", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [
      failing(`/defillama-coins/prices/historical/${THEN}/coingecko:ethereum,coingecko:usd-coin`, 500, LLAMA_DOCS),
      failing("/defillama-coins/prices/current/coingecko:ethereum,coingecko:usd-coin", 500, LLAMA_DOCS),
      failing(
        "/coingecko/coins/ethereum/market_chart?vs_currency=usd&days=30",
        429,
        "https://docs.coingecko.com/docs/common-errors-rate-limit",
      ),
      failing(
        "/coingecko/coins/usd-coin/market_chart?vs_currency=usd&days=30",
        429,
        "https://docs.coingecko.com/docs/common-errors-rate-limit",
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("impermanent-loss-live", { feeApr: 5 }));
});

test("impermanent-loss-live: pair, chain, days 1-365, lpAmount, feeApr and priceChangePercent are checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/impermanent-loss-live?pair=ETH/NOPE"), "pair");
  await expectFree400(await service.request("/v1/impermanent-loss-live?chain=Eth%20Main"), "chain");
  await expectFree400(await service.request("/v1/impermanent-loss-live?days=0"), "days");
  await expectFree400(await service.request("/v1/impermanent-loss-live?days=366"), "days");
  await expectFree400(await service.request("/v1/impermanent-loss-live?lpAmount=0"), "lpAmount");
  await expectFree400(await service.request("/v1/impermanent-loss-live?feeApr=-1"), "feeApr");
  await expectFree400(await service.request("/v1/impermanent-loss-live?priceChangePercent=-100"), "priceChangePercent");
  assert.equal(api.calls.length, 0);
});
