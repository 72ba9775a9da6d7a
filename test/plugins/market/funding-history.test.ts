import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const twoDays = [
  "binance.funding-rate-btc-2d",
  "bybit.funding-history-btc-2d",
  "okx.funding-history-btc",
  "hyperliquid.funding-history-btc-2d",
];

test("funding-history: every venue's prints over the window, summarized in decimal", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, twoDays);
  const data = dataOf(await service.call("funding-history", { days: 2 }));
  assert.equal(data.from, "2025-01-13T12:00:00.000Z");
  assert.deepEqual(data.sources, { answered: ["binance-futures", "bybit", "okx", "hyperliquid"], missing: [] });
  const binance = data.venues[0];
  assert.equal(binance.count, 6);
  assert.equal(binance.prints[0].rate, "0.00010000");
  // sum 0.00043 -> 0.043 % over 2 days -> 7.8475 % a year
  assert.equal(binance.cumulativePercent, "0.043");
  assert.equal(binance.annualizedPercent, "7.8475");
  assert.equal(binance.positiveShare, "0.8333");
  assert.equal(binance.meanRate, "0.000071666667");
  // Bybit pages newest first; the answer is oldest first
  assert.deepEqual(
    data.venues[1].prints.map((p: any) => p.rate),
    ["0.0001", "0.00008", "-0.00002", "0.00005", "0.00012", "0.0001"],
  );
  // OKX's print older than the window is dropped
  assert.equal(data.venues[2].count, 6);
  // Hyperliquid: 47 hourly prints of 0.0000125
  assert.equal(data.venues[3].count, 47);
  assert.equal(data.venues[3].cumulativePercent, "0.05875");
});

test("funding-history: 30 days and the BTC USDT perpetual by default; one exchange alone", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service, api } = await marketService(t, ["binance.funding-rate-btc-30d"]);
  const data = dataOf(await service.call("funding-history", { exchange: "binance" }));
  assert.equal(data.days, 30);
  assert.equal(data.asset, "BTC");
  assert.equal(data.from, "2024-12-16T12:00:00.000Z");
  assert.equal(api.calls.length, 1);
  assert.deepEqual(data.sources, { answered: ["binance-futures"], missing: [] });
});

test("funding-history: Binance refusing the region leaves the others", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [
      failing(
        `/binance-futures/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=${NOW - 2 * 86_400_000}&endTime=${NOW}&limit=1000`,
        451,
        "https://dev.binance.vision/t/binance-api-451-error/",
      ),
      ...twoDays.slice(1),
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("funding-history", { days: 2 }));
  assert.deepEqual(data.sources.missing, [{ venue: "binance-futures", reason: "binance-futures answered 451" }]);
  assert.deepEqual(
    data.venues.map((x: any) => x.venue),
    ["bybit", "okx", "hyperliquid"],
  );
});

test("funding-history: one exchange chosen and down is a 502", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [
      failing(
        "/okx/public/funding-rate-history?instId=BTC-USDT-SWAP&limit=100",
        500,
        "https://www.okx.com/docs-v5/en/#error-code",
      ),
    ],
    { reuse: true },
  );
  const out = await service.call("funding-history", { exchange: "okx", days: 2 });
  assert.equal(out.status, 502);
});

test("funding-history: more than 90 days, zero days or an unknown exchange are free 400s", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/funding-history?days=91"), "days");
  await expectFree400(await service.request("/v1/funding-history?days=0"), "days");
  await expectFree400(await service.request("/v1/funding-history?exchange=ftx"), "exchange");
  assert.equal((await service.request("/v1/funding-history?days=90")).status, 402);
  assert.equal(api.calls.length, 0);
});

test("funding-history: Binance's answer is paged past 1,000 prints, so 90 days of an hourly contract is whole", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const start = NOW - 90 * 86_400_000;
  const hourly = Array.from({ length: 2160 }, (_, i) => ({
    symbol: "BTCUSDT",
    fundingTime: start + (i + 1) * 3_600_000,
    fundingRate: "0.00001000",
    markPrice: "99000.00000000",
  }));
  const source =
    "https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Get-Funding-Rate-History (oldest first; limit at most 1000)";
  const page = (from: number, rows: typeof hourly) => ({
    source,
    request: {
      method: "GET",
      path: `/binance-futures/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=${from}&endTime=${NOW}&limit=1000`,
    },
    response: { status: 200, body: rows },
  });
  const { service, api } = await marketService(t, [
    page(start, hourly.slice(0, 1000)),
    page(hourly[999].fundingTime + 1, hourly.slice(1000, 2000)),
    page(hourly[1999].fundingTime + 1, hourly.slice(2000)),
  ]);
  const data = dataOf(await service.call("funding-history", { exchange: "binance", days: 90 }));
  assert.equal(api.calls.length, 3);
  assert.equal(data.venues[0].count, 2160);
  // 2,160 prints of 0.001 % is 2.16 % over 90 days
  assert.equal(data.venues[0].cumulativePercent, "2.16");
});
