import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");

test("pt-yt-rates: ethereum by default, expired markets left out, deepest first", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["pendle.markets-ethereum"]);
  const data = dataOf(await service.call("pt-yt-rates", {}));
  assert.equal(data.chainId, 1);
  assert.equal(data.matched, 2);
  assert.deepEqual(
    data.markets.map((m: any) => m.name),
    ["sUSDe", "weETH"],
  );
  assert.deepEqual(data.markets[0], {
    address: "0xb162b764044697cf03617c2efbcb1f42e31e4766",
    name: "sUSDe",
    protocol: "Ethena",
    expiry: "2025-03-27T00:00:00.000Z",
    daysToExpiry: 70,
    impliedApyPercent: "17.81",
    underlyingApyPercent: "11.12",
    floatingMinusFixedPercent: "-6.69",
    ptPriceUsd: 0.9705,
    ptPriceInAsset: 0.9698,
    ytPriceUsd: 0.0302,
    liquidityUsd: 385000000,
    volume24hUsd: 41000000,
    url: "https://app.pendle.finance/trade/markets/0xb162b764044697cf03617c2efbcb1f42e31e4766?chainId=1",
  });
});

test("pt-yt-rates: market filters by name or address, limit caps the list", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["pendle.markets-ethereum"], { reuse: true });
  assert.deepEqual(
    dataOf(await service.call("pt-yt-rates", { market: "weeth" })).markets.map((m: any) => m.name),
    ["weETH"],
  );
  assert.equal(
    dataOf(await service.call("pt-yt-rates", { market: "0xB162B764044697CF03617C2EFBCB1F42E31E4766" })).matched,
    1,
  );
  const one = dataOf(await service.call("pt-yt-rates", { limit: 1 }));
  assert.equal(one.markets.length, 1);
  assert.equal(one.matched, 2);
});

test("pt-yt-rates: Pendle down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [failing("/pendle/v1/42161/markets?limit=100&skip=0", 500, "https://api-v2.pendle.finance/core/docs")],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("pt-yt-rates", { chain: "arbitrum" }));
});

test("pt-yt-rates: chain, limit 1-100 and market are checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/pt-yt-rates?chain=solana"), "chain");
  await expectFree400(await service.request("/v1/pt-yt-rates?limit=0"), "limit");
  await expectFree400(await service.request("/v1/pt-yt-rates?limit=101"), "limit");
  await expectFree400(await service.request("/v1/pt-yt-rates?market=%3Cscript%3E"), "market");
  assert.equal(api.calls.length, 0);
});
