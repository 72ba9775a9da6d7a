import { test } from "node:test";
import assert from "node:assert/strict";
import { loadFixture } from "../../helpers/fixtures.ts";
import { dataOf, dir, expectUpstreamFailure, failing, marketService } from "./_market.ts";
import { errorOf } from "../../helpers/expect.ts";
import fundingEndpoint from "../../../plugins/market/funding.ts";

const all = [
  "binance.premium-index-all",
  "binance.funding-info",
  "bybit.tickers-linear",
  "okx.funding-rate-btc",
  "okx.funding-rate-eth",
  "okx.funding-rate-sol",
  "hyperliquid.meta-and-asset-ctxs",
];
const BINANCE_451 = "https://dev.binance.vision/t/binance-api-451-error/ (HTTP 451 from restricted locations)";

test("funding: every venue's current rate per asset, annualized per interval, with the spread", async (t) => {
  const { service } = await marketService(t, all);
  const data = dataOf(await service.call(fundingEndpoint, {}));
  assert.deepEqual(data.sources, { answered: ["binance-futures", "bybit", "okx", "hyperliquid"], missing: [] });
  assert.deepEqual(
    data.assets.map((a: any) => a.asset),
    ["BTC", "ETH", "SOL"],
  );
  const btc = data.assets[0]!;
  assert.deepEqual(
    btc.venues.find((v: any) => v.venue === "binance-futures"),
    {
      venue: "binance-futures",
      asset: "BTC",
      symbol: "BTCUSDT",
      rate: "0.00010000",
      intervalHours: 8,
      annualizedPercent: "10.95",
      nextFundingTime: "2025-01-15T16:00:00.000Z",
      markPrice: "99421.30000000",
    },
  );
  // Hyperliquid funds hourly: 0.0000125 x 24 x 365 x 100 = 10.95
  assert.equal(btc.venues.find((v: any) => v.venue === "hyperliquid")!.annualizedPercent, "10.95");
  // OKX: 0.0000868 x 3 x 365 x 100 = 9.5046; spread against 10.95
  assert.equal(btc.venues.find((v: any) => v.venue === "okx")!.annualizedPercent, "9.5046");
  assert.equal(btc.spreadAnnualizedPercent, "1.4454");
  // Binance's fundingInfo says SOL funds every 4 h: -0.0000215 x 6 x 365 x 100
  const sol = data.assets[2].venues.find((v: any) => v.venue === "binance-futures")!;
  assert.equal(sol.intervalHours, 4);
  assert.equal(sol.annualizedPercent, "-4.7085");
  assert.equal(
    data.assets[2].venues.some((v: any) => v.venue === "bybit"),
    false,
  );
});

test("funding: Binance refusing the region (451) leaves the other venues and says so", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/binance-futures/fapi/v1/premiumIndex", 451, BINANCE_451),
      failing("/binance-futures/fapi/v1/fundingInfo", 451, BINANCE_451),
      ...all.slice(2),
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call(fundingEndpoint, {}));
  assert.deepEqual(data.sources.answered, ["bybit", "okx", "hyperliquid"]);
  assert.deepEqual(data.sources.missing, [{ venue: "binance-futures", reason: "binance-futures answered 451" }]);
  assert.equal(data.assets[0].venues.length, 3);
});

test("funding: every venue down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/binance-futures/fapi/v1/premiumIndex", 451, BINANCE_451),
      failing("/binance-futures/fapi/v1/fundingInfo", 451, BINANCE_451),
      failing(
        "/bybit/v5/market/tickers?category=linear",
        403,
        "https://bybit-exchange.github.io/docs/v5/error (403: access from a restricted IP)",
      ),
      failing("/okx/public/funding-rate?instId=BTC-USDT-SWAP", 500, "https://www.okx.com/docs-v5/en/#error-code"),
      failing("/okx/public/funding-rate?instId=ETH-USDT-SWAP", 500, "https://www.okx.com/docs-v5/en/#error-code"),
      failing("/okx/public/funding-rate?instId=SOL-USDT-SWAP", 500, "https://www.okx.com/docs-v5/en/#error-code"),
      failing(
        "/hyperliquid/info",
        500,
        "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint",
        "POST",
      ),
    ],
    { reuse: true },
  );
  const out = await service.call(fundingEndpoint, {});
  expectUpstreamFailure(out);
  assert.match(errorOf(out).message, /binance-futures.*bybit.*okx.*hyperliquid/);
});

test("funding: an unknown parameter is a free 400, the price is $0.01", async (t) => {
  const { service, api } = await marketService(t, []);
  const unknown = await service.request("/v1/funding?x=1");
  assert.equal(unknown.status, 400);
  assert.equal((await unknown.json()).error.details.issues[0].field, "x");
  const res = await service.request("/v1/funding");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "10000");
  assert.equal(api.calls.length, 0);
});

const BYBIT_INSTRUMENT =
  "https://bybit-exchange.github.io/docs/v5/market/instrument (linear: fundingInterval in minutes)";
/** Bybit's linear tickers as recorded, without the fundingIntervalHour the tickers page lists as optional. */
async function tickersWithoutInterval() {
  const recorded = await loadFixture("bybit.tickers-linear", dir);
  const body = structuredClone(recorded.response.body) as any;
  for (const x of body.result.list) delete x.fundingIntervalHour;
  return { ...recorded, response: { ...recorded.response, body } };
}
const instrument = (symbol: string, fundingInterval?: number) => ({
  source: BYBIT_INSTRUMENT,
  request: { method: "GET", path: `/bybit/v5/market/instruments-info?category=linear&symbol=${symbol}` },
  response: {
    status: 200,
    body: {
      retCode: 0,
      retMsg: "OK",
      result: {
        category: "linear",
        list: [
          {
            symbol,
            contractType: "LinearPerpetual",
            status: "Trading",
            ...(fundingInterval ? { fundingInterval } : {}),
          },
        ],
        nextPageCursor: "",
      },
      time: 1736942400000,
    },
  },
});

test("funding: a Bybit ticker without its interval reads it from the instrument, never assumes 8 h", async (t) => {
  const { service, api } = await marketService(t, [
    ...all.filter((name) => name !== "bybit.tickers-linear"),
    await tickersWithoutInterval(),
    instrument("BTCUSDT", 240),
    instrument("ETHUSDT", 480),
  ]);
  const data = dataOf(await service.call(fundingEndpoint, {}));
  const btc = data.assets[0].venues.find((v: any) => v.venue === "bybit")!;
  assert.equal(btc.intervalHours, 4);
  assert.equal(data.assets[1].venues.find((v: any) => v.venue === "bybit")!.intervalHours, 8);
  assert.equal(api.calls.filter((c) => c.path.includes("instruments-info")).length, 2);
});

test("funding: Bybit giving no interval anywhere is an unknown, reported, not a guessed 8 h", async (t) => {
  const { service } = await marketService(t, [
    ...all.filter((name) => name !== "bybit.tickers-linear"),
    await tickersWithoutInterval(),
    instrument("BTCUSDT"),
    instrument("ETHUSDT", 480),
  ]);
  const data = dataOf(await service.call(fundingEndpoint, {}));
  assert.deepEqual(data.sources.missing, [{ venue: "bybit", reason: "Bybit gives no funding interval for BTCUSDT" }]);
  assert.ok(data.assets.every((a: any) => a.venues.every((v: any) => v.venue !== "bybit")));
});
