import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import walletPnl from "../../../plugins/onchain/wallet-pnl.ts";

const dir = new URL("./fixtures/", import.meta.url);
const WALLET = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    env: { UPSTREAM_BLOCKSCOUT_ETHEREUM_URL: url, UPSTREAM_DEFILLAMA_COINS_URL: url },
  });
const fixtures = [
  "blockscout.token-transfers-wallet-p1",
  "blockscout.token-transfers-wallet-p2",
  "defillama.batch-historical-wallet",
  "defillama.current-wallet",
];

test("wallet-pnl: FIFO realized and unrealized PnL per token across two Blockscout pages, gaps named", async (t) => {
  const api = await serveFixtures(t, fixtures, { dir });
  const out = await (await serviceWith(api.url)).call(walletPnl, { address: WALLET.toLowerCase(), transfers: 5 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.address, data.transfersRead, data.from, data.to],
    [WALLET, 5, "2024-12-24T18:42:23.000Z", "2025-02-03T14:20:47.000Z"],
  );
  assert.deepEqual([data.realizedUsd, data.unrealizedUsd, data.totalUsd, data.winRate], [50, -0.03, 49.97, 0.5]);
  assert.deepEqual(
    data.tokens.map((x: any) => x.symbol),
    ["PEPE", "REWARD", "USDC"],
  );
  const [pepe, spam, usdc] = data.tokens;
  assert.deepEqual(
    [pepe.received, pepe.sent, pepe.held, pepe.costBasisUsd, pepe.realizedUsd, pepe.unrealizedUsd, pepe.complete],
    ["10000000", "10000000", "0", 0, 50, 0, true],
  );
  assert.deepEqual(
    [usdc.held, usdc.costBasisUsd, usdc.realizedUsd, usdc.unrealizedUsd, usdc.complete],
    ["150", 150, 0, -0.03, false],
  );
  assert.match(usdc.gaps[0], /sent 100 more than received/);
  assert.deepEqual([spam.totalUsd, spam.priceUsd, spam.gaps.length], [0, null, 2]);
  assert.equal(api.calls.length, 4);
});

test("wallet-pnl: a wallet Blockscout never indexed has no PnL, not an error", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: 'https://docs.blockscout.com/api-reference/get-address-token-transfers (404 {message: "Not found"})',
      request: { method: "GET", path: `/api/v2/addresses/${WALLET}/token-transfers?type=ERC-20` },
      response: { status: 404, body: { message: "Not found" } },
    },
  ]);
  const out = await (await serviceWith(api.url)).call(walletPnl, { address: WALLET });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual([dataOf(out).tokens, dataOf(out).totalUsd, dataOf(out).winRate], [[], 0, null]);
});

test("wallet-pnl: a Blockscout or DefiLlama outage is a 502", async (t) => {
  const busy: Fixture = {
    source: "outage",
    request: { method: "GET", path: `/api/v2/addresses/${WALLET}/token-transfers?type=ERC-20` },
    response: { status: 503, body: "busy" },
  };
  const down = await serveFixtures(t, [busy], { reuse: true });
  const first = await (await serviceWith(down.url)).call(walletPnl, { address: WALLET });
  assert.equal(first.status, 502, JSON.stringify(first.body));

  const prices = await serveFixtures(
    t,
    [
      "blockscout.token-transfers-wallet-p1",
      "blockscout.token-transfers-wallet-p2",
      {
        source: "outage",
        request: {
          method: "GET",
          path: "/prices/current/ethereum:0x0b91b07beb67333225a5ba0259d55aee10e3a578,ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48,ethereum:0x6982508145454ce325ddbe47a25d4ec3d2311933",
        },
        response: { status: 500, body: "error" },
      },
      "defillama.batch-historical-wallet",
    ],
    { dir, reuse: true },
  );
  const second = await (await serviceWith(prices.url)).call(walletPnl, { address: WALLET, transfers: 5 });
  assert.equal(second.status, 502, JSON.stringify(second.body));
});

test("wallet-pnl: a bad address, chain or transfers count is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    [`/v1/wallet-pnl?address=${WALLET}&chain=bsc`, "chain"],
    ["/v1/wallet-pnl?address=0x12", "address"],
    [`/v1/wallet-pnl?address=${WALLET}&transfers=501`, "transfers"],
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
