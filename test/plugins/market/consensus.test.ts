import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const btc = [
  "coingecko.simple-price-bitcoin",
  "defillama.current-bitcoin",
  "binance.premium-index-btc",
  "bybit.tickers-btc",
  "hyperliquid.meta-and-asset-ctxs",
];
const BINANCE_451 = "https://dev.binance.vision/t/binance-api-451-error/ (HTTP 451 from restricted locations)";
const HL_DOCS = "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint";
const CG_429 = "https://docs.coingecko.com/docs/common-errors-rate-limit";

test("consensus: BTC by default, median, mean and dispersion over five sources", async (t) => {
  const { service } = await marketService(t, btc);
  const data = dataOf(await service.call("consensus", {}));
  assert.equal(data.dispersionBps, "2.3436");
  assert.equal(data.asset, "BTC");
  // 99398.0, 99418.10, 99418.12, 99421, 99421.3
  assert.equal(data.medianUsd, "99418.12");
  assert.equal(data.meanUsd, "99415.304");
  assert.equal(data.quotes.find((q: any) => q.source === "hyperliquid").deviationBps, "-2.0238");
  assert.equal(
    data.quotes.every((q: any) => q.outlier === false),
    true,
  );
  assert.deepEqual(data.sources.answered, ["coingecko", "defillama-coins", "binance-futures", "bybit", "hyperliquid"]);
});

test("consensus: sources down are listed and the rest still agree", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing(
        "/coingecko/simple/price?ids=bitcoin&vs_currencies=usd&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true",
        429,
        CG_429,
      ),
      "defillama.current-bitcoin",
      failing("/binance-futures/fapi/v1/premiumIndex?symbol=BTCUSDT", 451, BINANCE_451),
      "bybit.tickers-btc",
      "hyperliquid.meta-and-asset-ctxs",
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("consensus", { asset: "btc" }));
  assert.deepEqual(data.sources.answered, ["defillama-coins", "bybit", "hyperliquid"]);
  assert.deepEqual(
    data.sources.missing.map((m: any) => m.venue),
    ["coingecko", "binance-futures"],
  );
  assert.equal(data.medianUsd, "99418.1");
});

test("consensus: every source down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing(
        "/coingecko/simple/price?ids=bitcoin&vs_currencies=usd&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true",
        429,
        CG_429,
      ),
      failing("/defillama-coins/prices/current/coingecko:bitcoin", 500, "https://api-docs.defillama.com/#tag/coins"),
      failing("/binance-futures/fapi/v1/premiumIndex?symbol=BTCUSDT", 451, BINANCE_451),
      failing(
        "/bybit/v5/market/tickers?category=linear&symbol=BTCUSDT",
        503,
        "https://bybit-exchange.github.io/docs/v5/error",
      ),
      failing("/hyperliquid/info", 500, HL_DOCS, "POST"),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("consensus", {}));
});

test("consensus: an unknown asset is a free 400", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/consensus?asset=NOPE"), "asset");
  assert.equal(api.calls.length, 0);
});
