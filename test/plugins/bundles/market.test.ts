import { test } from "node:test";
import assert from "node:assert/strict";
import { bundleService, dataOf, expectFree400, failing, statuses } from "./_bundles.ts";

/** The families the parts live in: loading only these keeps the file fast. */
const ONLY = { plugins: ["bundles", "market"] };
const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const FUNDING = [
  "binance.premium-index-all",
  "binance.funding-info",
  "bybit.tickers-linear",
  "okx.funding-rate-btc",
  "okx.funding-rate-eth",
  "okx.funding-rate-sol",
  "hyperliquid.meta-and-asset-ctxs",
];
const OPEN_INTEREST = [
  "binance.open-interest-btc",
  "binance.premium-index-btc",
  "bybit.tickers-btc",
  "okx.open-interest-btc",
];
const MEMPOOL = ["difficulty", "fees", "hashrate", "mempool", "prices", "tip-height"].map((x) => `mempool.${x}`);
const DERIBIT = ["deribit.book-summary-btc", "deribit.index-price-btc", "deribit.dvol-btc"];
const NEWS = ["coindesk.rss", "cointelegraph.rss", "decrypt.rss", "theblock.rss"];
const market = (names: string[]) => names.map((n) => `market/${n}`);
const PULSE = market([
  "coingecko.simple-price-bitcoin",
  ...FUNDING,
  ...OPEN_INTEREST,
  "alternative-me.fng-1",
  "coingecko.global",
  "coingecko.coins-markets",
  ...MEMPOOL,
]);
const PACK = market([
  "coingecko.simple-price-bitcoin",
  ...FUNDING,
  ...OPEN_INTEREST,
  "alternative-me.fng-1",
  ...DERIBIT,
  ...NEWS,
]);
const FNG_DOWN = failing(
  "/alternative-me/fng/?limit=1&format=json",
  500,
  "https://alternative.me/crypto/fear-and-greed-index/",
);

test("market-pulse: every part on fixtures, summarized", async (t) => {
  const { service } = await bundleService(t, PULSE, ONLY);
  const data = dataOf(await service.call("market-pulse", { symbol: "BTCUSDT" }));
  assert.deepEqual(statuses(data), {
    price: 200,
    funding: 200,
    openInterest: 200,
    fearGreed: 200,
    global: 200,
    movers: 200,
    bitcoin: 200,
  });
  assert.deepEqual(data.failed, []);
  assert.deepEqual(data.summary, {
    asset: "BTC",
    priceUsd: 99421,
    change24hPercent: 2.3101,
    fundingAnnualizedPercent: "10.5887",
    openInterestUsd: "17529667349.58",
    fearGreed: { value: 70, classification: "Greed" },
    btcDominancePercent: 56.1,
    marketCapChange24hPercent: 1.92,
    topGainer: { symbol: "hype", changePercent: 12.41 },
    topLoser: { symbol: "pepe", changePercent: -6.2 },
  });
  assert.equal(data.parts.price.endpoint, "crypto-price");
  assert.equal(data.parts.price.data.prices[0].id, "bitcoin");
});

test("market-pulse: fear & greed down is a 502 in place, the rest answers", async (t) => {
  const { service } = await bundleService(t, [...PULSE.filter((f) => !f.includes("fng")), FNG_DOWN], ONLY);
  const out = await service.call("market-pulse", {});
  const data = dataOf(out);
  assert.equal(data.parts.fearGreed.status, 502);
  assert.equal(data.parts.fearGreed.ok, false);
  assert.equal(data.parts.fearGreed.error.code, "upstream_error");
  assert.equal(data.parts.fearGreed.data, undefined);
  assert.deepEqual(data.failed, ["fearGreed"]);
  assert.equal(data.summary.fearGreed, null);
  assert.equal(data.summary.priceUsd, 99421);
});

test("market-pulse: an asset with no known coin id skips the price and, not BTC, the network stats", async (t) => {
  const { service } = await bundleService(
    t,
    market([
      ...FUNDING,
      "alternative-me.fng-1",
      "coingecko.global",
      "coingecko.coins-markets",
      "binance.invalid-symbol",
      "binance.invalid-symbol-premium",
      "bybit.tickers-unknown",
      "okx.open-interest-unknown",
    ]),
    ONLY,
  );
  const data = dataOf(await service.call("market-pulse", { symbol: "NOPE" }));
  assert.deepEqual(
    data.skipped.map((s: any) => s.part),
    ["price", "bitcoin"],
  );
  assert.match(data.skipped[0].reason, /pass coin/);
  assert.equal(data.parts.price, undefined);
  assert.equal(data.parts.openInterest.status, 404);
  assert.equal(data.summary.fundingAnnualizedPercent, null);
});

test("market-pulse: a bad symbol is a free 400 and no part runs", async (t) => {
  const { service, api } = await bundleService(t, [], ONLY);
  await expectFree400(await service.request("/v1/market-pulse?symbol=BTC%20USD"), "symbol");
  await expectFree400(await service.request("/v1/trader-pack?symbol=%24%24"), "symbol");
  await expectFree400(await service.request("/v1/trader-dashboard?fundingDays=400"), "fundingDays");
  assert.equal(api.calls.length, 0);
});

test("trader-pack: every part on fixtures: options for BTC, liquidation bands, headlines", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await bundleService(t, PACK, ONLY);
  const data = dataOf(await service.call("trader-pack", { symbol: "BTC" }));
  assert.deepEqual(statuses(data), {
    price: 200,
    funding: 200,
    openInterest: 200,
    liquidations: 200,
    options: 200,
    fearGreed: 200,
    news: 200,
  });
  assert.deepEqual(data.failed, []);
  const s = data.summary;
  assert.equal(s.positioning, "neutral");
  assert.equal(s.dvol, 54.21);
  assert.equal(s.putCallRatio, 0.2417);
  assert.equal(s.nearestLiquidation.leverage, data.parts.liquidations.data.bands.at(-1).leverage);
  assert.ok(Number(s.nearestLiquidation.longPrice) < 99421 && Number(s.nearestLiquidation.shortPrice) > 99421);
});

test("trader-pack: Deribit down leaves options failed in place; the rest answers", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await bundleService(
    t,
    [
      ...PACK.filter((f) => !f.includes("deribit")),
      failing(
        "/deribit/public/get_book_summary_by_currency?currency=BTC&kind=option",
        500,
        "https://docs.deribit.com/",
      ),
      "market/deribit.index-price-btc",
      "market/deribit.dvol-btc",
    ],
    ONLY,
  );
  const data = dataOf(await service.call("trader-pack", {}));
  assert.equal(data.parts.options.status, 502);
  assert.equal(data.summary.dvol, null);
  assert.equal(data.summary.priceUsd, 99421);
});

test("trader-dashboard: the trader pack nested, with breadth, predictions, stablecoins, funding history and TVL", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await bundleService(
    t,
    [
      ...PACK,
      ...market([
        "coingecko.global",
        "coingecko.coins-markets",
        "polymarket.markets",
        "defillama.stablecoins",
        "defillama.chains",
        "binance.funding-rate-btc-2d",
        "bybit.funding-history-btc-2d",
        "okx.funding-history-btc",
        "hyperliquid.funding-history-btc-2d",
      ]),
    ],
    ONLY,
  );
  const data = dataOf(await service.call("trader-dashboard", { symbol: "BTC", fundingDays: 2 }));
  assert.deepEqual(statuses(data), {
    pack: 200,
    global: 200,
    movers: 200,
    predictions: 200,
    stablecoins: 200,
    fundingHistory: 200,
    tvl: 200,
    news: 200,
  });
  assert.equal(data.summary.pack.dvol, 54.21);
  assert.deepEqual(data.parts.pack.data.failed, []);
  assert.equal(data.summary.marketCapChange24hPercent, 1.92);
  assert.deepEqual(data.summary.fundingCumulativePercent[0], { venue: "binance-futures", cumulativePercent: "0.043" });
  assert.equal(data.summary.topPrediction.question, data.parts.predictions.data.markets[0].question);
  assert.equal(data.summary.topChainByTvl.name, data.parts.tvl.data.ranking[0].name);
  assert.equal(data.summary.stablecoinSupplyChange7dUsd, data.parts.stablecoins.data.total.change7dUsd);
});
