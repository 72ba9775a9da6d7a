import { test } from "node:test";
import assert from "node:assert/strict";
import hot from "../../../plugins/market/hot.ts";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const all = [
  "geckoterminal.trending-pools",
  "dexscreener.boosts-top",
  "dexscreener.tokens-base-keycat",
  "dexscreener.tokens-solana-wif",
];
const GT_429 = "https://apiguide.geckoterminal.com/faq (429 above 30 calls/min)";
const DS_429 = "https://docs.dexscreener.com/api/reference (429 above the per-minute limit)";

test("hot: GeckoTerminal trending and DexScreener boosts merged, one row per token, busiest first", async (t) => {
  const { service } = await marketService(t, all);
  const data = dataOf(await service.call("hot", {}));
  assert.deepEqual(data.sources, { answered: ["geckoterminal", "dexscreener"], missing: [] });
  // WIF is on both lists: GeckoTerminal's row is kept; the tron boost is not a chain we map
  assert.deepEqual(
    data.tokens.map((x: any) => `${x.chain} ${x.name} ${x.source}`),
    ["solana WIF / SOL geckoterminal", "ethereum PEPE / WETH geckoterminal", "base KEYCAT / WETH dexscreener"],
  );
  // KEYCAT priced from its deepest pair
  assert.deepEqual(data.tokens[2], {
    chain: "base",
    pool: "0x377feeed4820b3b28d1ab429509e7a0789824fca",
    name: "KEYCAT / WETH",
    dex: "uniswap",
    baseToken: "0x9a26f5433671751c3276a065f57e5a02d2817973",
    quoteToken: "0x4200000000000000000000000000000000000006",
    priceUsd: "0.007021",
    priceChange1hPercent: "-2.1",
    priceChange24hPercent: "18.7",
    volume24hUsd: "2120334.5",
    liquidityUsd: "1840123.12",
    txns24h: 5500,
    createdAt: "2024-05-29T16:26:40.000Z",
    url: "https://dexscreener.com/base/0x377feeed4820b3b28d1ab429509e7a0789824fca",
    source: "dexscreener",
  });
});

test("hot: GeckoTerminal down leaves DexScreener's rows and says so; limit caps the list", async (t) => {
  const { service } = await marketService(
    t,
    [failing("/geckoterminal/networks/trending_pools?page=1", 429, GT_429), ...all.slice(1)],
    { reuse: true },
  );
  const data = dataOf(await service.call("hot", { limit: 1 }));
  assert.deepEqual(data.sources.answered, ["dexscreener"]);
  assert.equal(data.sources.missing[0].venue, "geckoterminal");
  assert.deepEqual(
    data.tokens.map((x: any) => x.name),
    ["$WIF / SOL"],
  );
});

test("hot: both sources down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/geckoterminal/networks/trending_pools?page=1", 429, GT_429),
      failing("/dexscreener/token-boosts/top/v1", 429, DS_429),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("hot", {}));
});

test("hot: limit 1-50 is checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/hot?limit=0"), "limit");
  await expectFree400(await service.request("/v1/hot?limit=51"), "limit");
  assert.equal(api.calls.length, 0);
});

test("hot: cached 60 s, as the spec's Limits table says", () => {
  assert.equal(hot.cacheTtl, 60);
});
