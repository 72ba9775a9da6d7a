import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import smartMoney from "../../../plugins/onchain/smart-money.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    env: { UPSTREAM_GECKOTERMINAL_URL: url, UPSTREAM_BLOCKSCOUT_ETHEREUM_URL: url, UPSTREAM_DEFILLAMA_COINS_URL: url },
  });
const gecko = ["geckoterminal.trending-pools-eth", "geckoterminal.trades-pepe-weth", "geckoterminal.trades-usdc-weth"];
const pnlOf = {
  vitalik: [
    "blockscout.token-transfers-wallet-p1",
    "blockscout.token-transfers-wallet-p2",
    "defillama.batch-historical-wallet",
    "defillama.current-wallet",
  ],
  trader: [
    "blockscout.token-transfers-trader",
    "defillama.batch-historical-trader-pnl",
    "defillama.current-trader-pnl",
  ],
};

test("smart-money: large traders of the trending pools, scored by their FIFO PnL and explained", async (t) => {
  const api = await serveFixtures(t, [...gecko, ...pnlOf.vitalik, ...pnlOf.trader], { dir });
  const out = await (await serviceWith(api.url)).call(smartMoney, {});
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    data.pools.map((p: any) => p.name),
    ["PEPE / WETH", "USDC / WETH 0.05%"],
  );
  assert.deepEqual(
    data.wallets.map((w: any) => [w.address, w.smart, w.volumeUsd, w.trades.length]),
    [
      ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", true, 42000, 2],
      ["0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE", false, 25000.5, 1],
    ],
  );
  const [smart, other] = data.wallets;
  assert.equal(smart.why, "PnL +$49.97 over its last 5 token transfers; 1 of 2 tokens in profit");
  assert.deepEqual(smart.pnl, {
    realizedUsd: 50,
    unrealizedUsd: -0.03,
    totalUsd: 49.97,
    winRate: 0.5,
    tokens: 3,
    incompleteTokens: 2,
    transfersRead: 5,
    from: "2024-12-24T18:42:23.000Z",
  });
  assert.deepEqual([other.pnl.totalUsd, other.pnl.unrealizedUsd, other.pnl.winRate], [-44.6, -44.6, 0]);
  assert.equal(other.why, "PnL -$44.60 over its last 5 token transfers; 0 of 1 tokens in profit");
  assert.equal(api.calls.length, 10);
});

test("smart-money: limit scores only the largest traders", async (t) => {
  const api = await serveFixtures(t, [...gecko, ...pnlOf.vitalik], { dir });
  const out = await (await serviceWith(api.url)).call(smartMoney, { limit: 1 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(
    dataOf(out).wallets.map((w: any) => w.address),
    ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"],
  );
});

test("smart-money: a GeckoTerminal outage is a 502", async (t) => {
  const limited: Fixture = {
    source: "https://apiguide.geckoterminal.com/faq (429 above 30 calls/min)",
    request: { method: "GET", path: "/networks/eth/trending_pools" },
    response: { status: 429, body: { status: "429", title: "Rate Limited" } },
  };
  const api = await serveFixtures(t, [limited], { reuse: true });
  const out = await (await serviceWith(api.url)).call(smartMoney, { chain: "ethereum" });
  assert.ok(out.status >= 502 && out.status <= 504, JSON.stringify(out.body));
});

test("smart-money: a bad chain, limit or minUsd is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    ["/v1/smart-money?chain=gnosis", "chain"],
    ["/v1/smart-money?limit=11", "limit"],
    ["/v1/smart-money?minUsd=5", "minUsd"],
  ]) {
    const res = await service.request(path);
    assert.equal(res.status, 400, path);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      path,
    );
  }
  assert.equal(api.calls.length, 0);
});
