import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");

test("options: BTC by default: DVOL, ratios, ATM IV and max pain per expiry", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, [
    "deribit.book-summary-btc",
    "deribit.index-price-btc",
    "deribit.dvol-btc",
  ]);
  const data = dataOf(await service.call("options", {}));
  assert.equal(data.currency, "BTC");
  assert.equal(data.indexPrice, 99412.35);
  assert.equal(data.dvol, 54.21);
  assert.deepEqual(data.openInterest, { calls: 15310.8, puts: 3700, putCallRatio: 0.2417 });
  assert.deepEqual(data.volumeUsd, { calls: 15500000, puts: 2300000, putCallRatio: 0.1484 });
  assert.deepEqual(data.expiries, [
    { expiry: "2025-01-31T08:00:00.000Z", atmIv: 49.5, maxPain: 100000, callOpenInterest: 500, putOpenInterest: 700 },
    {
      expiry: "2025-03-28T08:00:00.000Z",
      atmIv: 55.1,
      maxPain: 90000,
      callOpenInterest: 14810.8,
      putOpenInterest: 3000,
    },
  ]);
  assert.deepEqual(data.busiestStrikes[0], { instrument: "BTC-28MAR25-120000-C", openInterest: 10210.3, markIv: 61.2 });
});

test("options: Deribit down is a 502", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [
      failing(
        "/deribit/public/get_book_summary_by_currency?currency=ETH&kind=option",
        500,
        "https://docs.deribit.com/",
      ),
      "deribit.index-price-btc",
      "deribit.dvol-btc",
      failing("/deribit/public/get_index_price?index_name=eth_usd", 500, "https://docs.deribit.com/"),
      failing(
        `/deribit/public/get_volatility_index_data?currency=ETH&start_timestamp=${NOW - 3 * 3_600_000}&end_timestamp=${NOW}&resolution=3600`,
        500,
        "https://docs.deribit.com/",
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("options", { currency: "ETH" }));
});

test("options: a currency other than BTC or ETH is a free 400", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/options?currency=SOL"), "currency");
  await expectFree400(await service.request("/v1/options?currency=btc"), "currency");
  assert.equal(api.calls.length, 0);
});
