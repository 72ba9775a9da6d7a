import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, failing, marketService } from "./_market.ts";

const btc = [
  "binance.open-interest-btc",
  "binance.premium-index-btc",
  "bybit.tickers-btc",
  "okx.open-interest-btc",
  "hyperliquid.meta-and-asset-ctxs",
];

test("open-interest: every venue in coin and USD, totalled; BTCUSDT by default", async (t) => {
  const { service } = await marketService(t, btc);
  const data = dataOf(await service.call("open-interest", {}));
  assert.equal(data.asset, "BTC");
  assert.deepEqual(data.sources, { answered: ["binance-futures", "bybit", "okx", "hyperliquid"], missing: [] });
  assert.deepEqual(data.venues[0], {
    venue: "binance-futures",
    symbol: "BTCUSDT",
    openInterest: "81234.512",
    notionalUsd: "8076440787.91",
    markPrice: "99421.30000000",
    time: "2025-01-15T11:59:59.000Z",
  });
  assert.equal(data.venues[1].notionalUsd, "5203707766.96");
  assert.equal(data.venues[2].openInterest, "27512.43");
  // 15234.44251 x 99398.0
  assert.equal(data.venues[3].notionalUsd, "1514273116.61");
  assert.equal(data.totalNotionalUsd, "17529667349.58");
});

test("open-interest: a venue down or refusing the region is listed as missing", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing(
        "/binance-futures/fapi/v1/openInterest?symbol=ETHUSDT",
        451,
        "https://dev.binance.vision/t/binance-api-451-error/",
      ),
      failing(
        "/binance-futures/fapi/v1/premiumIndex?symbol=ETHUSDT",
        451,
        "https://dev.binance.vision/t/binance-api-451-error/",
      ),
      failing(
        "/bybit/v5/market/tickers?category=linear&symbol=ETHUSDT",
        503,
        "https://bybit-exchange.github.io/docs/v5/error",
      ),
      failing(
        "/okx/public/open-interest?instType=SWAP&instId=ETH-USDT-SWAP",
        500,
        "https://www.okx.com/docs-v5/en/#error-code",
      ),
      "hyperliquid.meta-and-asset-ctxs",
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("open-interest", { symbol: "eth" }));
  assert.equal(data.asset, "ETH");
  assert.deepEqual(data.sources.answered, ["hyperliquid"]);
  assert.deepEqual(
    data.sources.missing.map((m: any) => m.venue),
    ["binance-futures", "bybit", "okx"],
  );
  assert.equal(data.venues[0].openInterest, "412399.1234");
});

test("open-interest: a symbol no venue lists is a 404", async (t) => {
  const { service } = await marketService(t, [
    "binance.invalid-symbol",
    "binance.invalid-symbol-premium",
    "bybit.tickers-unknown",
    "okx.open-interest-unknown",
    "hyperliquid.meta-and-asset-ctxs",
  ]);
  const out = await service.call("open-interest", { symbol: "NOPEUSDT" });
  assert.equal(out.status, 404, JSON.stringify(out.body));
});

test("open-interest: a malformed symbol is a free 400 and calls nothing", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/open-interest?symbol=BTC%2FUSDT%3Bdrop"), "symbol");
  await expectFree400(await service.request(`/v1/open-interest?symbol=${"A".repeat(30)}`), "symbol");
  assert.equal(api.calls.length, 0);
});
