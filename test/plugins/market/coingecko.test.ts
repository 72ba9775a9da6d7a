import { test } from "node:test";
import assert from "node:assert/strict";
import { loadFixture } from "../../helpers/fixtures.ts";
import { dataOf, dir, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const CG_429 = "https://docs.coingecko.com/docs/common-errors-rate-limit (429 when the keyless limit is reached)";
const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const simple = (ids: string) =>
  `/coingecko/simple/price?ids=${ids}&vs_currencies=usd&include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true`;

test("crypto-price: CoinGecko prices, unknown ids listed", async (t) => {
  const { service } = await marketService(t, ["coingecko.simple-price"]);
  const data = dataOf(await service.call("crypto-price", { ids: "bitcoin,ethereum,no-such-coin" }));
  assert.deepEqual(data.prices[0], {
    id: "bitcoin",
    priceUsd: 99421,
    marketCapUsd: 1969392468375.6,
    volume24hUsd: 48792934612.3,
    change24hPercent: 2.3101,
    updatedAt: "2025-01-15T11:59:40.000Z",
  });
  assert.deepEqual(data.unknown, ["no-such-coin"]);
  assert.deepEqual(data.sources, { answered: ["coingecko"], missing: [] });
});

test("crypto-price: bitcoin by default; CoinGecko rate-limited falls back to DefiLlama and says so", async (t) => {
  const { service: one } = await marketService(t, ["coingecko.simple-price-bitcoin"]);
  assert.deepEqual(
    dataOf(await one.call("crypto-price", {})).prices.map((p: any) => p.id),
    ["bitcoin"],
  );
  const { service } = await marketService(
    t,
    [failing(simple("bitcoin,ethereum,no-such-coin"), 429, CG_429), "defillama.prices-current"],
    { reuse: true },
  );
  const data = dataOf(await service.call("crypto-price", { ids: "bitcoin,ethereum,no-such-coin" }));
  assert.deepEqual(data.sources, {
    answered: ["defillama-coins"],
    missing: [{ venue: "coingecko", reason: "coingecko answered 429" }],
  });
  assert.deepEqual(data.prices[1], {
    id: "ethereum",
    priceUsd: 3301.1,
    marketCapUsd: null,
    volume24hUsd: null,
    change24hPercent: null,
    updatedAt: "2025-01-15T11:59:51.000Z",
  });
});

test("crypto-price: both sources down is a 502; more than 50 ids or bad ids are free 400s", async (t) => {
  const { service, api } = await marketService(
    t,
    [
      failing(simple("bitcoin"), 500, CG_429),
      failing("/defillama-coins/prices/current/coingecko:bitcoin", 500, "https://api-docs.defillama.com/"),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("crypto-price", { ids: "bitcoin" }));
  const calls = api.calls.length;
  await expectFree400(
    await service.request(`/v1/crypto-price?ids=${Array.from({ length: 51 }, (_, i) => `c${i}`).join(",")}`),
    "ids",
  );
  await expectFree400(await service.request("/v1/crypto-price?ids=Bitcoin;drop"), "ids");
  assert.equal(api.calls.length, calls);
});

test("crypto-history: bitcoin over 30 days in usd by default", async (t) => {
  const { service } = await marketService(t, ["coingecko.market-chart-bitcoin-30d"]);
  const data = dataOf(await service.call("crypto-history", {}));
  assert.equal(data.days, 30);
  assert.equal(data.vs, "usd");
  assert.equal(data.series[0].id, "bitcoin");
  assert.deepEqual(data.series[0].points[0], {
    time: "2024-12-16T12:00:00.000Z",
    price: 94000.1,
    marketCap: 1860000000000,
    volume: 40000000000,
  });
});

test("crypto-history: CoinGecko down falls back to DefiLlama's daily chart", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [
      failing("/coingecko/coins/bitcoin/market_chart?vs_currency=usd&days=2", 503, CG_429),
      "defillama.chart-bitcoin-2d",
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call("crypto-history", { days: 2 }));
  assert.deepEqual(data.sources.answered, ["defillama-coins"]);
  assert.deepEqual(
    data.series[0].points.map((p: any) => p.price),
    [96510, 97840.5, 99418.1],
  );
  assert.equal(data.series[0].points[0].marketCap, null);
});

test("crypto-history: an unknown id is a 404; days over 365 or 6 ids are free 400s", async (t) => {
  const { service, api } = await marketService(t, [
    {
      ...(await loadFixture("coingecko.market-chart-unknown", dir)),
      request: { method: "GET", path: "/coingecko/coins/no-such-coin/market_chart?vs_currency=eur&days=30" },
    },
  ]);
  assert.equal((await service.call("crypto-history", { ids: "no-such-coin", vs: "eur" })).status, 404);
  await expectFree400(await service.request("/v1/crypto-history?days=366"), "days");
  await expectFree400(await service.request("/v1/crypto-history?ids=a,b,c,d,e,f"), "ids");
  await expectFree400(await service.request("/v1/crypto-history?vs=US%20D"), "vs");
  assert.equal(api.calls.length, 1);
});

test("top-movers: gainers and losers over 24 h by default, low-volume coins left out", async (t) => {
  const { service } = await marketService(t, ["coingecko.coins-markets"], { reuse: true });
  const data = dataOf(await service.call("top-movers", {}));
  assert.deepEqual(
    data.gainers.map((c: any) => [c.id, c.changePercent]),
    [
      ["hyperliquid", 12.41],
      ["bitcoin", 2.31],
      ["tether", 0.01],
    ],
  );
  assert.deepEqual(
    data.losers.map((c: any) => [c.id, c.changePercent]),
    [
      ["pepe", -6.2],
      ["ethereum", -0.81],
    ],
  );
  const week = dataOf(await service.call("top-movers", { window: "7d", limit: 1, minVolume: 0 }));
  assert.deepEqual([week.gainers[0].id, week.losers[0].id], ["tinycoin", "pepe"]);
  await expectFree400(await service.request("/v1/top-movers?window=30d"), "window");
});

test("top-movers, market-global, trending-crypto: CoinGecko down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing(
        "/coingecko/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=250&page=1&price_change_percentage=1h,24h,7d",
        500,
        CG_429,
      ),
      failing("/coingecko/global", 500, CG_429),
      failing("/coingecko/search/trending", 500, CG_429),
      failing("/coingecko/nfts/pudgy-penguins", 500, CG_429),
    ],
    { reuse: true },
  );
  for (const [name, input] of [
    ["top-movers", {}],
    ["market-global", {}],
    ["trending-crypto", {}],
    ["nft-floor", { collection: "pudgy-penguins" }],
  ] as const) {
    expectUpstreamFailure(await service.call(name, input));
  }
});

test("market-global: totals, dominance and counts", async (t) => {
  const { service } = await marketService(t, ["coingecko.global"]);
  assert.deepEqual(dataOf(await service.call("market-global", {})), {
    totalMarketCapUsd: 3512345678901.2,
    totalVolume24hUsd: 123456789012.3,
    marketCapChange24hPercent: 1.92,
    dominancePercent: { btc: 56.1, eth: 11.4, usdt: 3.9 },
    activeCryptocurrencies: 16412,
    markets: 1198,
    updatedAt: "2025-01-15T11:58:20.000Z",
  });
});

test("trending-crypto: coins and NFT collections in CoinGecko's order", async (t) => {
  const { service } = await marketService(t, ["coingecko.trending"]);
  const data = dataOf(await service.call("trending-crypto", {}));
  assert.deepEqual(data.coins[0], {
    id: "hyperliquid",
    name: "Hyperliquid",
    symbol: "HYPE",
    marketCapRank: 19,
    priceUsd: 21.4,
    change24hPercent: 12.41,
    thumb: "https://coin-images.coingecko.com/coins/images/50882/thumb/hyperliquid.jpg",
    url: "https://www.coingecko.com/en/coins/hyperliquid",
  });
  assert.deepEqual(data.nfts[0], {
    id: "pudgy-penguins",
    name: "Pudgy Penguins",
    symbol: "PPG",
    floorPrice: 10.69,
    floorCurrency: "ETH",
    floorChange24hPercent: -3.2,
  });
});

test("nft-floor: a collection's floor; unknown is a 404; a bad id is a free 400", async (t) => {
  const { service, api } = await marketService(t, ["coingecko.nft-pudgy", "coingecko.nft-unknown"]);
  const data = dataOf(await service.call("nft-floor", { collection: "pudgy-penguins" }));
  assert.deepEqual(data.floor, { native: 10.69, currency: "ETH", usd: 35312.2 });
  assert.equal(data.holders, 4981);
  assert.equal(data.chain, "ethereum");
  assert.equal((await service.call("nft-floor", { collection: "no-such-nft" })).status, 404);
  await expectFree400(await service.request("/v1/nft-floor"), "collection");
  await expectFree400(await service.request("/v1/nft-floor?collection=..%2Fglobal"), "collection");
  assert.equal(api.calls.length, 2);
});
