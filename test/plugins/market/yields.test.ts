import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { dataOf, dir, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

test("yields: pools of a chain by APY, outliers and pools under 1,000,000 USD TVL left out by default", async (t) => {
  const { service } = await marketService(t, ["defillama.yield-pools"]);
  const data = dataOf(await service.call("yields", { chain: "ethereum" }));
  assert.equal(data.minTvl, 1_000_000);
  assert.equal(data.matched, 4);
  assert.deepEqual(
    data.pools.map((p: any) => [p.project, p.apy]),
    [
      ["uniswap-v3", 18.4],
      ["freshvault", 9.5],
      ["aave-v3", 5.62],
      ["lido", 2.91],
    ],
  );
  assert.deepEqual(data.pools[2], {
    id: "aa70268e-4b52-42bf-a116-608b370f9501",
    project: "aave-v3",
    chain: "Ethereum",
    symbol: "USDC",
    tvlUsd: 1520000000,
    apy: 5.62,
    apyBase: 4.8,
    apyReward: 0.82,
    apyMean30d: 5.1,
    stablecoin: true,
    ilRisk: "no",
    exposure: "single",
    poolMeta: null,
    url: "https://defillama.com/yields/pool/aa70268e-4b52-42bf-a116-608b370f9501",
  });
});

test("yields: 25 pools by default across all chains; limit, minTvl and chain slugs of display names", async (t) => {
  const { service } = await marketService(t, ["defillama.yield-pools"], { reuse: true });
  const all = dataOf(await service.call("yields", {}));
  assert.equal(all.chain, null);
  assert.equal(all.matched, 6);
  assert.equal(all.pools.length, 6);
  assert.equal(all.pools[0].project, "aerodrome-v1");
  assert.equal(dataOf(await service.call("yields", { limit: 2 })).pools.length, 2);
  assert.equal(dataOf(await service.call("yields", { minTvl: 0, chain: "eth" })).matched, 5);
  assert.deepEqual(
    dataOf(await service.call("yields", { chain: "zksync-era" })).pools.map((p: any) => p.project),
    ["syncswap"],
  );
});

test("yields: DefiLlama down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [failing("/defillama-yields/pools", 502, "https://yields.llama.fi/docs")],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("yields", {}));
});

test("yields: limit over 100, negative minTvl and a chain that is not a slug are free 400s", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/yields?limit=101"), "limit");
  await expectFree400(await service.request("/v1/yields?limit=0"), "limit");
  await expectFree400(await service.request("/v1/yields?minTvl=-1"), "minTvl");
  await expectFree400(await service.request("/v1/yields?chain=Ethereum%20Mainnet"), "chain");
  assert.equal(api.calls.length, 0);
});

test("yield-optimizer: ranks by the risk-adjusted score and says why", async (t) => {
  const { service, api } = await marketService(t, ["defillama.yield-pools"], { reuse: true });
  const data = dataOf(await service.call("yield-optimizer", { chain: "ethereum" }));
  assert.equal(data.considered, 3, "the pool with 5 days of history is left out");
  assert.deepEqual(
    data.pools.map((p: any) => [p.project, p.score]),
    [
      ["uniswap-v3", 10.26],
      ["aave-v3", 5.1],
      ["lido", 2.91],
    ],
  );
  assert.deepEqual(data.pools[0].adjustments, [
    "capped at the 30-day mean",
    "x0.75 impermanent-loss risk",
    "x0.9 APY predicted to fall",
  ]);
  assert.deepEqual(data.pools[1].adjustments, ["reward APY counted at half", "capped at the 30-day mean"]);
  const stable = dataOf(await service.call("yield-optimizer", { chain: "ethereum", stablecoinOnly: true }));
  assert.deepEqual(
    stable.pools.map((p: any) => p.project),
    ["aave-v3"],
  );
  assert.equal(api.calls.length, 2, "one read of the pools file per call");
});

test("yield-optimizer: DefiLlama down is a 502; a bad limit is a free 400", async (t) => {
  const { service, api } = await marketService(
    t,
    [failing("/defillama-yields/pools", 500, "https://yields.llama.fi/docs")],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("yield-optimizer", {}));
  const before = api.calls.length;
  await expectFree400(await service.request("/v1/yield-optimizer?limit=51"), "limit");
  await expectFree400(await service.request("/v1/yield-optimizer?stablecoinOnly=maybe"), "stablecoinOnly");
  assert.equal(api.calls.length, before);
});

test("yields: at most 25 pools by default", async (t) => {
  const recorded = JSON.parse(await readFile(new URL("defillama.yield-pools.json", dir), "utf8"));
  const many = Array.from({ length: 30 }, (_, i) => ({
    ...recorded.response.body.data[0],
    pool: `pool-${i}`,
    apy: 30 - i,
  }));
  const { service } = await marketService(t, [
    { ...recorded, response: { status: 200, body: { status: "success", data: many } } },
  ]);
  const data = dataOf(await service.call("yields", {}));
  assert.equal(data.matched, 30);
  assert.equal(data.pools.length, 25);
  assert.equal(data.pools[24].id, "pool-24");
});
