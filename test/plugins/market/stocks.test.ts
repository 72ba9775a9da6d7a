import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const YAHOO_429 = "https://github.com/gadicc/yahoo-finance2/issues (Yahoo throttles per IP with 429)";

test("stock: the latest quote with the change against the previous close", async (t) => {
  const { service } = await marketService(t, ["yahoo.chart-aapl-1d"]);
  assert.deepEqual(dataOf(await service.call("stock", { symbol: "aapl" })), {
    symbol: "AAPL",
    name: "Apple Inc.",
    exchange: "NasdaqGS",
    currency: "USD",
    type: "EQUITY",
    price: 233.28,
    previousClose: 234.4,
    change: "-1.12",
    changePercent: "-0.4778",
    open: 234.75,
    dayHigh: 236.12,
    dayLow: 232.47,
    volume: 39435294,
    time: "2025-01-14T21:00:01.000Z",
    url: "https://finance.yahoo.com/quote/AAPL",
  });
});

test("stock: an unknown symbol is a 404; Yahoo throttling is a 502; a bad symbol is a free 400", async (t) => {
  const { service, api } = await marketService(
    t,
    ["yahoo.chart-unknown", failing("/yahoo-finance/v8/finance/chart/MSFT?range=1d&interval=1d", 429, YAHOO_429)],
    { reuse: true },
  );
  assert.equal((await service.call("stock", { symbol: "NOSUCHTKR" })).status, 404);
  expectUpstreamFailure(await service.call("stock", { symbol: "MSFT" }));
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/stock?symbol=AAPL%3Bx"), "symbol");
  assert.equal(api.calls.length, calls);
});

test("stock-history: 90 days by default, bars without a close dropped, summary computed", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["yahoo.chart-aapl-90d"]);
  const data = dataOf(await service.call("stock-history", { symbol: "AAPL" }));
  assert.equal(data.days, 90);
  assert.equal(data.bars.length, 7);
  assert.deepEqual(data.bars[6], {
    date: "2025-01-14",
    open: 233.78,
    high: 235.28,
    low: 231.28,
    close: 233.28,
    volume: 40000000,
  });
  assert.equal(data.summary.returnPercent, "-1.5073");
  assert.equal(data.summary.maxDrawdownPercent, "-4.7837");
  assert.equal(data.summary.sma20, null);
  assert.ok(Number(data.summary.volatilityAnnualizedPercent) > 0);
});

test("stock-history: Yahoo down is a 502; symbol is required and days at most 1825", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service, api } = await marketService(
    t,
    [
      failing(
        `/yahoo-finance/v8/finance/chart/AAPL?period1=${NOW / 1000 - 90 * 86_400}&period2=${NOW / 1000}&interval=1d`,
        500,
        YAHOO_429,
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("stock-history", { symbol: "AAPL" }));
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/stock-history"), "symbol");
  await expectFree400(await service.request("/v1/stock-history?symbol=AAPL&days=1826"), "days");
  assert.equal(api.calls.length, calls);
});
