import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import stockToken from "../../../plugins/market/stock-token.ts";
import stockTokens from "../../../plugins/market/stock-tokens.ts";
import stockTokensHot from "../../../plugins/market/stock-tokens-hot.ts";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const AAPL = "0xb200000000000000000000C2e324d24d7eEcd1fb";
const ALL =
  "0xb200000000000000000000C2e324d24d7eEcd1fb,0xb2000000000000000000002D0BA3164cc74f58B7,0xb2000000000000000000008bC8786B856E61707C,0xb20000000000000000000078ee7ce2fE4908108C";
const DS_429 = "https://docs.dexscreener.com/api/reference (429 above 300 requests/min on /tokens/v1)";
const CB_DOCS =
  "https://docs.base.org/sdks/tokenized-stocks/api-reference/list-tokenized-stocks (error body {code, message, details})";

test("stock-tokens: the registry sorted by symbol, priced from DexScreener pools where the token is the base", async (t) => {
  const { service } = await marketService(t, ["coinbase.tokenized-stocks", "dexscreener.tokens-base-stocks"]);
  const data = dataOf(await service.call("stock-tokens", {}));
  assert.deepEqual(data.sources, { answered: ["coinbase-tokenized-stocks", "dexscreener"], missing: [] });
  assert.equal(data.matched, 4);
  assert.deepEqual(
    data.tokens.map((x: any) => x.symbol),
    ["AAPL", "GOOGL", "META", "NVDA"],
  );
  // the look-alike pair quoting AAPL is not AAPL's market; volumes and liquidity summed over both AAPL pools
  assert.deepEqual(data.tokens[0], {
    symbol: "AAPL",
    ticker: "AAPL",
    name: "Apple",
    isin: "US0378331005",
    issuer: "Coinbase",
    chain: "base",
    address: AAPL,
    decimals: 8,
    totalSupply: "1523.75",
    multiplier: "1",
    pausedFeatures: [],
    navPriceUsd: "229.87",
    navPriceUpdatedAt: "2025-08-18T20:00:00.000Z",
    priceUsd: "230.12",
    priceChange24hPercent: "0.42",
    volume24hUsd: "59328.25",
    liquidityUsd: "427365.77",
    pools: 2,
    poolUrl: "https://dexscreener.com/base/0x5c1b8f3c7e2a9d4b6f0e1a2c3d4e5f6a7b8c9d0e",
  });
  assert.equal(data.tokens[1].priceUsd, null);
  assert.equal(data.tokens[1].pools, 0);
  assert.deepEqual(data.tokens[2].pausedFeatures, ["1"]);
});

test("stock-tokens: q searches symbol, name or ISIN before pricing; limit caps the page", async (t) => {
  const { service, api } = await marketService(t, ["coinbase.tokenized-stocks", "dexscreener.tokens-base-aapl"], {
    reuse: true,
  });
  const byName = dataOf(await service.call("stock-tokens", { q: "apple" }));
  assert.deepEqual(
    byName.tokens.map((x: any) => x.symbol),
    ["AAPL"],
  );
  assert.equal(byName.tokens[0].pools, 2);
  const byIsin = dataOf(await service.call("stock-tokens", { q: "us03783" }));
  assert.deepEqual(
    byIsin.tokens.map((x: any) => x.isin),
    ["US0378331005"],
  );
  const capped = dataOf(await service.call("stock-tokens", { q: "a", limit: 1 }));
  assert.equal(capped.matched, 4);
  assert.deepEqual(
    capped.tokens.map((x: any) => x.symbol),
    ["AAPL"],
  );
  const none = dataOf(await service.call("stock-tokens", { q: "zzz" }));
  assert.deepEqual(none, { tokens: [], matched: 0, sources: { answered: ["coinbase-tokenized-stocks"], missing: [] } });
  assert.ok(
    api.calls.every((c) => !c.path.includes("0xb2000000000000000000002D0BA3164cc74f58B7")),
    "unmatched tokens are not priced",
  );
});

test("stock-tokens: DexScreener down keeps the registry with null prices; Coinbase down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    ["coinbase.tokenized-stocks", failing(`/dexscreener/tokens/v1/base/${ALL}`, 429, DS_429)],
    { reuse: true },
  );
  const data = dataOf(await service.call("stock-tokens", {}));
  assert.deepEqual(data.sources.answered, ["coinbase-tokenized-stocks"]);
  assert.equal(data.sources.missing[0].venue, "dexscreener");
  assert.equal(data.tokens.length, 4);
  assert.ok(data.tokens.every((x: any) => x.priceUsd === null && x.volume24hUsd === null));

  const down = await marketService(t, [failing("/coinbase-tokenized-stocks", 503, CB_DOCS)], { reuse: true });
  expectUpstreamFailure(await down.service.call("stock-tokens", {}));
});

test("stock-token: symbol or its c-suffixed form finds the registry token, with every pool it is the base of", async (t) => {
  const { service } = await marketService(t, ["coinbase.tokenized-stocks", "dexscreener.tokens-base-aapl"], {
    reuse: true,
  });
  const data = dataOf(await service.call("stock-token", { symbol: "aaplc" }));
  assert.equal(data.token.address, AAPL);
  assert.equal(data.token.volume24hUsd, "59328.25");
  assert.deepEqual(
    data.pools.map((p: any) => `${p.name} ${p.dex} ${p.liquidityUsd}`),
    ["AAPL / USDC uniswap 412345.67", "AAPL / WETH aerodrome 15020.1"],
  );
  assert.equal(data.pools[0].txns24h, 212);
  const withIsin = dataOf(await service.call("stock-token", { symbol: "AAPL", isin: "us0378331005" }));
  assert.equal(withIsin.token.symbol, "AAPL");
});

test("stock-token: unknown symbol or a mismatched ISIN is a 404; DexScreener down leaves the market null", async (t) => {
  const { service } = await marketService(
    t,
    ["coinbase.tokenized-stocks", failing(`/dexscreener/tokens/v1/base/${AAPL}`, 500, DS_429)],
    { reuse: true },
  );
  assert.equal((await service.call("stock-token", { symbol: "TSLA" })).status, 404);
  assert.equal((await service.call("stock-token", { symbol: "AAPL", isin: "US67066G1040" })).status, 404);
  const data = dataOf(await service.call("stock-token", { symbol: "AAPL" }));
  assert.deepEqual(data.pools, []);
  assert.equal(data.token.priceUsd, null);
  assert.equal(data.sources.missing[0].venue, "dexscreener");
});

test("stock-tokens-hot: registry tokens ranked by 24 h DEX volume, untraded ones left out", async (t) => {
  const { service } = await marketService(t, ["coinbase.tokenized-stocks", "dexscreener.tokens-base-stocks"], {
    reuse: true,
  });
  const data = dataOf(await service.call("stock-tokens-hot", {}));
  assert.deepEqual(
    data.tokens.map((x: any) => `${x.symbol} ${x.volume24hUsd}`),
    ["NVDA 201554.125", "AAPL 59328.25"],
  );
  assert.deepEqual(
    dataOf(await service.call("stock-tokens-hot", { limit: 1 })).tokens.map((x: any) => x.symbol),
    ["NVDA"],
  );
});

test("stock-tokens-hot: no ranking without DexScreener (502)", async (t) => {
  const { service } = await marketService(
    t,
    ["coinbase.tokenized-stocks", failing(`/dexscreener/tokens/v1/base/${ALL}`, 429, DS_429)],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("stock-tokens-hot", {}));
});

test("stock tokens: bad input is a free 400 naming the field, before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/stock-tokens?limit=0"), "limit");
  await expectFree400(await service.request("/v1/stock-tokens?limit=101"), "limit");
  await expectFree400(await service.request(`/v1/stock-tokens?q=${"x".repeat(41)}`), "q");
  await expectFree400(await service.request("/v1/stock-token"), "symbol");
  await expectFree400(await service.request("/v1/stock-token?symbol=AAPL%3B"), "symbol");
  await expectFree400(await service.request("/v1/stock-token?symbol=AAPL&isin=US037833"), "isin");
  await expectFree400(await service.request("/v1/stock-tokens-hot?limit=51"), "limit");
  assert.equal(api.calls.length, 0);
});

test("stock tokens: defaults and caches as the spec says (30 s, 15 s, 60 s)", () => {
  assert.equal(stockTokens.cacheTtl, 30);
  assert.equal(stockToken.cacheTtl, 15);
  assert.equal(stockTokensHot.cacheTtl, 60);
  assert.deepEqual(v.parse(stockTokens.input, {}), { limit: 50 });
  assert.deepEqual(v.parse(stockTokensHot.input, {}), { limit: 10 });
});
