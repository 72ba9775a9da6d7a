import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

test("predictions: busiest open markets with 24 h volume of at least 100,000 USD by default", async (t) => {
  const { service } = await marketService(t, ["polymarket.markets"]);
  const data = dataOf(await service.call("predictions", {}));
  assert.equal(data.minVolume, 100_000);
  assert.equal(data.markets.length, 2, "the 90,000 USD market is under the default floor");
  assert.deepEqual(data.markets[0], {
    id: "516710",
    question: "Fed decreases interest rates by 25 bps after January 2025 meeting?",
    outcomes: [
      { name: "Yes", price: "0.0035" },
      { name: "No", price: "0.9965" },
    ],
    volume24hUsd: 4123456.78,
    liquidityUsd: 1987654.32,
    endDate: "2025-01-29T12:00:00Z",
    url: "https://polymarket.com/market/fed-decreases-interest-rates-by-25-bps-after-january-2025-meeting",
  });
});

test("predictions: limit and minVolume", async (t) => {
  const { service } = await marketService(t, ["polymarket.markets"], { reuse: true });
  assert.equal(dataOf(await service.call("predictions", { minVolume: 0 })).markets.length, 3);
  assert.equal(dataOf(await service.call("predictions", { limit: 1 })).markets.length, 1);
  assert.equal(dataOf(await service.call("predictions", { minVolume: 1_000_000 })).markets.length, 1);
});

test("predictions: Polymarket down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing(
        "/polymarket-gamma/markets?active=true&closed=false&order=volume24hr&ascending=false&limit=100",
        500,
        "https://docs.polymarket.com/",
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("predictions", {}));
});

test("predictions: limit out of 1-100 or a negative minVolume are free 400s", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/predictions?limit=101"), "limit");
  await expectFree400(await service.request("/v1/predictions?limit=abc"), "limit");
  await expectFree400(await service.request("/v1/predictions?minVolume=-5"), "minVolume");
  assert.equal(api.calls.length, 0);
});
