import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const funding = [
  "binance.premium-index-all",
  "binance.funding-info",
  "bybit.tickers-linear",
  "okx.funding-rate-btc",
  "okx.funding-rate-eth",
  "okx.funding-rate-sol",
  "hyperliquid.meta-and-asset-ctxs",
];
const BINANCE_451 = "https://dev.binance.vision/t/binance-api-451-error/ (HTTP 451 from restricted locations)";
const HL_DOCS = "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint";

test("edge: funding-arb by default, the widest venue pair per asset, widest first", async (t) => {
  const { service } = await marketService(t, funding);
  const data = dataOf(await service.call("edge", {}));
  assert.equal(data.type, "funding-arb");
  const btc = data.signals.find((s: any) => s.asset === "BTC");
  // OKX 9.5046 is the lowest, the others 10.95
  assert.equal(btc.longVenue, "okx");
  assert.deepEqual(
    data.signals.map((s: any) => s.asset),
    ["ETH", "SOL", "BTC"],
  );
  assert.equal(btc.spreadAnnualizedPercent, "1.4454");
  const spreads = data.signals.map((s: any) => Number(s.spreadAnnualizedPercent));
  assert.deepEqual(
    spreads,
    [...spreads].sort((a, b) => b - a),
  );
  assert.equal(data.sources.answered.length, 4);
});

test("edge: basis from the same venue reads, one venue down is listed", async (t) => {
  const { service } = await marketService(
    t,
    [
      "binance.premium-index-all",
      "hyperliquid.meta-and-asset-ctxs",
      failing(
        "/bybit/v5/market/tickers?category=linear",
        403,
        "https://bybit-exchange.github.io/docs/v5/error (403: access from a restricted IP)",
      ),
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("edge", { type: "basis" }));
  assert.deepEqual(data.sources.answered, ["binance-futures", "hyperliquid"]);
  assert.deepEqual(data.sources.missing, [{ venue: "bybit", reason: "bybit answered 403" }]);
  const btc = data.signals.find((s: any) => s.venue === "binance-futures" && s.asset === "BTC");
  // (99421.3 - 99450.1234) / 99450.1234
  assert.equal(btc.basisBps, "-2.8983");
});

test("edge: every venue down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/binance-futures/fapi/v1/premiumIndex", 451, BINANCE_451),
      failing("/bybit/v5/market/tickers?category=linear", 403, "https://bybit-exchange.github.io/docs/v5/error"),
      failing("/hyperliquid/info", 500, HL_DOCS, "POST"),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("edge", { type: "basis" }));
});

test("edge: an unknown type is a free 400", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/edge?type=alpha"), "type");
  assert.equal(api.calls.length, 0);
});
