import { test } from "node:test";
import assert from "node:assert/strict";
import stock from "../../../plugins/market/stock.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const LIMITS = "https://twelvedata.com/docs#errors (429: the plan's API credits for the minute are used up)";
const KEY = { UPSTREAM_TWELVE_DATA_KEY: "test-twelve-data-key" };

test("stock: the latest quote with the change against the previous close, the key sent as apikey", async (t) => {
  const { service, api } = await marketService(t, ["twelve-data.quote-aapl"], { env: KEY });
  assert.deepEqual(dataOf(await service.call("stock", { symbol: "aapl" })), stock.example.output);
  assert.equal(new URL(api.calls[0].path, api.url).searchParams.get("apikey"), KEY.UPSTREAM_TWELVE_DATA_KEY);
});

test("stock: an unknown symbol is a 404; Twelve Data's rate limit is a 502; a bad symbol is a free 400", async (t) => {
  const { service, api } = await marketService(
    t,
    ["twelve-data.quote-unknown", failing("/twelve-data/quote?symbol=MSFT", 429, LIMITS)],
    { reuse: true, env: KEY },
  );
  assert.equal((await service.call("stock", { symbol: "NOSUCHTKR" })).status, 404);
  expectUpstreamFailure(await service.call("stock", { symbol: "MSFT" }));
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/stock?symbol=AAPL%3Bx"), "symbol");
  assert.equal(api.calls.length, calls);
});

test("stock and stock-history: without UPSTREAM_TWELVE_DATA_KEY both are unmounted and listed as disabled", async () => {
  const service = await startTestService({ plugins: ["market"] });
  for (const name of ["stock", "stock-history"]) {
    assert.ok(!service.runtime.endpoints.some((e) => e.name === name), name);
    assert.deepEqual(
      service.runtime.disabled.find((d: { name: string }) => d.name === name),
      { name, reason: "missing UPSTREAM_TWELVE_DATA_KEY (upstream twelve-data)" },
    );
  }
});

test("stock-history: 90 days by default, bars oldest first, summary computed", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["twelve-data.time-series-aapl-90d"], { env: KEY });
  const data = dataOf(await service.call("stock-history", { symbol: "AAPL" }));
  assert.equal(data.days, 90);
  assert.equal(data.exchange, "NASDAQ");
  assert.equal(data.bars.length, 6);
  assert.deepEqual(data.bars[5], {
    date: "2025-01-14",
    open: 233.78,
    high: 235.28,
    low: 231.28,
    close: 233.28,
    volume: 40000000,
  });
  assert.equal(data.summary.returnPercent, "-1.5073");
  assert.equal(data.summary.maxDrawdownPercent, "-4.3346");
  assert.equal(data.summary.sma20, null);
  assert.ok(Number(data.summary.volatilityAnnualizedPercent) > 0);
});

test("stock-history: Twelve Data down is a 502; symbol is required and days at most 1825", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service, api } = await marketService(
    t,
    [
      failing(
        "/twelve-data/time_series?symbol=AAPL&interval=1day&start_date=2024-10-17&end_date=2025-01-15&order=asc&outputsize=5000",
        500,
        LIMITS,
      ),
    ],
    { reuse: true, env: KEY },
  );
  expectUpstreamFailure(await service.call("stock-history", { symbol: "AAPL" }));
  const calls = api.calls.length;
  await expectFree400(await service.request("/v1/stock-history"), "symbol");
  await expectFree400(await service.request("/v1/stock-history?symbol=AAPL&days=1826"), "days");
  assert.equal(api.calls.length, calls);
});
