import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const btc = [
  "binance.open-interest-btc",
  "binance.premium-index-btc",
  "bybit.tickers-btc",
  "okx.open-interest-btc",
  "hyperliquid.meta-and-asset-ctxs",
];
const BINANCE_451 = "https://dev.binance.vision/t/binance-api-451-error/ (HTTP 451 from restricted locations)";
const HL_DOCS = "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint";

test("liquidation-levels: BTC, 10x average, 5 tiers by default, from the median mark and total open interest", async (t) => {
  const { service } = await marketService(t, btc);
  const data = dataOf(await service.call("liquidation-levels", {}));
  assert.equal(data.asset, "BTC");
  // median of 99421.3, 99418.1, OKX's 2735245678.1 / 27512.43 and 99398.0
  assert.equal(data.markPrice, "99418.32101132");
  assert.equal(data.openInterestUsd, "17529667349.58");
  assert.deepEqual(
    data.bands.map((b: any) => b.leverage),
    ["5", "7.0711", "10", "14.1421", "20"],
  );
  // 10x: 1/10 - 0.5 % = 9.5 % either way
  assert.deepEqual(data.bands[2], {
    leverage: "10",
    long: { liquidationPrice: "89973.58", distancePercent: "-9.5" },
    short: { liquidationPrice: "108863.06", distancePercent: "9.5" },
    usdAtRiskPerSide: "1752966734.96",
  });
  assert.deepEqual(data.sources, { answered: ["binance-futures", "bybit", "okx", "hyperliquid"], missing: [] });
});

test("liquidation-levels: venues down are listed; the rest still price the bands", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/binance-futures/fapi/v1/openInterest?symbol=BTCUSDT", 451, BINANCE_451),
      failing("/binance-futures/fapi/v1/premiumIndex?symbol=BTCUSDT", 451, BINANCE_451),
      "bybit.tickers-btc",
      "okx.open-interest-btc",
      failing("/hyperliquid/info", 500, HL_DOCS, "POST"),
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("liquidation-levels", { asset: "BTCUSDT", avgLeverage: 10, levels: 1 }));
  assert.deepEqual(data.sources.answered, ["bybit", "okx"]);
  assert.deepEqual(
    data.sources.missing.map((m: any) => m.venue),
    ["binance-futures", "hyperliquid"],
  );
  assert.equal(data.bands.length, 1);
  assert.equal(data.openInterestUsd, "7938953445.06");
  assert.equal(data.bands[0].usdAtRiskPerSide, "3969476722.53");
  assert.equal(data.markPrice, "99418.32101132");
});

test("liquidation-levels: every venue down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/binance-futures/fapi/v1/openInterest?symbol=BTCUSDT", 451, BINANCE_451),
      failing("/binance-futures/fapi/v1/premiumIndex?symbol=BTCUSDT", 451, BINANCE_451),
      failing(
        "/bybit/v5/market/tickers?category=linear&symbol=BTCUSDT",
        503,
        "https://bybit-exchange.github.io/docs/v5/error",
      ),
      failing(
        "/okx/public/open-interest?instType=SWAP&instId=BTC-USDT-SWAP",
        500,
        "https://www.okx.com/docs-v5/en/#error-code",
      ),
      failing("/hyperliquid/info", 500, HL_DOCS, "POST"),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("liquidation-levels", {}));
});

test("liquidation-levels: avgLeverage 2-100 and levels 1-20 are checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/liquidation-levels?avgLeverage=1"), "avgLeverage");
  await expectFree400(await service.request("/v1/liquidation-levels?avgLeverage=101"), "avgLeverage");
  await expectFree400(await service.request("/v1/liquidation-levels?levels=0"), "levels");
  await expectFree400(await service.request("/v1/liquidation-levels?levels=21"), "levels");
  await expectFree400(await service.request("/v1/liquidation-levels?asset=BTC%3Bx"), "asset");
  assert.equal(api.calls.length, 0);
});
