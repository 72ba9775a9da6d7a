import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import copyTrades from "../../../plugins/onchain/copy-trades.ts";

const dir = new URL("./fixtures/", import.meta.url);
const TRADER = "0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE";
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    env: { UPSTREAM_BLOCKSCOUT_ETHEREUM_URL: url, UPSTREAM_DEFILLAMA_COINS_URL: url },
  });
const blockscout = [
  "blockscout.token-transfers-trader",
  "blockscout.transactions-trader",
  "blockscout.internal-transactions-trader",
];

test("copy-trades: token-for-token, native-for-token and token-for-native swaps with USD values then and now", async (t) => {
  const api = await serveFixtures(t, [...blockscout, "defillama.batch-historical-trader", "defillama.current-trader"], {
    dir,
  });
  const out = await (await serviceWith(api.url)).call(copyTrades, { address: TRADER.toLowerCase() });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const { trades } = dataOf(out);
  assert.deepEqual(
    trades.map((x: any) => [x.time, x.valueUsd]),
    [
      ["2025-02-03T14:20:47.000Z", 140],
      ["2025-01-10T09:00:11.000Z", 100],
      ["2024-12-30T21:05:59.000Z", 23.8],
    ],
  );
  const [ethForPepe, usdcForPepe, pepeForEth] = trades;
  assert.deepEqual(ethForPepe.sold, [{ token: null, symbol: "ETH", amount: "0.05", priceUsd: 2800, valueUsd: 140 }]);
  assert.deepEqual(ethForPepe.bought[0], {
    token: PEPE,
    symbol: "PEPE",
    amount: "10000000",
    priceUsd: 0.000014,
    valueUsd: 140,
    priceNowUsd: 0.00000977,
    changeSinceTrade: -0.302143,
  });
  assert.deepEqual(ethForPepe.mirror, { sellToken: null, buyToken: PEPE, sellAmount: "0.05", rate: "200000000" });
  assert.deepEqual([ethForPepe.router, ethForPepe.method], ["0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD", "execute"]);
  assert.deepEqual(
    [usdcForPepe.sold[0].symbol, usdcForPepe.mirror!.rate, usdcForPepe.bought[0].changeSinceTrade],
    ["USDC", "100000", -0.023],
  );
  assert.deepEqual(
    [pepeForEth.bought[0].token, pepeForEth.bought[0].amount, pepeForEth.bought[0].changeSinceTrade],
    [null, "0.007", -0.220553],
  );
  assert.match(pepeForEth.url, /\/tx\/0x9e8d7c6b/);
});

test("copy-trades: limit keeps the newest swaps and prices only those", async (t) => {
  const unix = Math.floor(Date.parse("2025-02-03T14:20:47Z") / 1000);
  const coins = JSON.stringify({
    "coingecko:ethereum": [unix],
    "ethereum:0x6982508145454ce325ddbe47a25d4ec3d2311933": [unix],
  });
  const llama: Fixture[] = [
    {
      source: "https://api-docs.defillama.com/ (GET /batchHistorical)",
      request: { method: "GET", path: `/batchHistorical?coins=${encodeURIComponent(coins)}` },
      response: { status: 200, body: { coins: {} } },
    },
    {
      source: "https://api-docs.defillama.com/ (GET /prices/current/{coins})",
      request: { method: "GET", path: "/prices/current/ethereum:0x6982508145454ce325ddbe47a25d4ec3d2311933" },
      response: { status: 200, body: { coins: {} } },
    },
  ];
  const api = await serveFixtures(t, [...blockscout, ...llama], { dir });
  const out = await (await serviceWith(api.url)).call(copyTrades, { address: TRADER, limit: 1 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const [trade] = dataOf(out).trades;
  assert.equal(dataOf(out).trades.length, 1);
  assert.deepEqual([trade.valueUsd, trade.sold[0].priceUsd, trade.bought[0].changeSinceTrade], [null, null, null]);
});

test("copy-trades: a Blockscout outage is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "blockscout.token-transfers-trader",
      "blockscout.internal-transactions-trader",
      {
        source: "outage",
        request: { method: "GET", path: `/api/v2/addresses/${TRADER}/transactions` },
        response: { status: 502, body: "bad gateway" },
      },
    ],
    { dir, reuse: true },
  );
  const out = await (await serviceWith(api.url)).call(copyTrades, { address: TRADER });
  assert.equal(out.status, 502, JSON.stringify(out.body));
});

test("copy-trades: a bad address, chain or limit is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    [`/v1/copy-trades?address=${TRADER}&chain=base-sepolia`, "chain"],
    ["/v1/copy-trades?address=trader", "address"],
    [`/v1/copy-trades?address=${TRADER}&limit=26`, "limit"],
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
