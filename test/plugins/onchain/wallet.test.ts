import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { plannedDevnet } from "../../../core/x402/devnet/index.ts";
import { startScene } from "./_devnet.ts";
import { dataOf } from "../../helpers/expect.ts";
import walletAge from "../../../plugins/onchain/wallet-age.ts";
import walletEndpoint from "../../../plugins/onchain/wallet.ts";

const scene = await startScene(["base-sepolia", "base"]);
/** The devnet's test DAI, a payment token minted to every dev account: found first, and not priced by DefiLlama. */
const testDai = plannedDevnet([]).tokens.dai;
const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_DEFILLAMA_COINS_URL: url } });
const prices = (coins: string[], body: unknown, status = 200): Fixture => ({
  source:
    "https://api-docs.defillama.com/#tag/coins/GET/prices/current/{coins} ({coins: {id: {price, symbol, decimals?, timestamp, confidence}}})",
  request: { method: "GET", path: `/prices/current/${coins.join(",")}` },
  response: { status, body },
});

test("wallet: native coin, tokens found from transfers, NFTs, valued with DefiLlama", async (t) => {
  const coins = ["coingecko:ethereum", `base:${testDai}`, `base:${scene.usdc}`, `base:${scene.token}`];
  const api = await serveFixtures(t, [
    prices(coins, {
      coins: {
        "coingecko:ethereum": { price: 3000, symbol: "ETH", timestamp: 1736900000, confidence: 0.99 },
        [`base:${scene.usdc}`]: { decimals: 6, price: 1, symbol: "USDC", timestamp: 1736900000, confidence: 0.99 },
      },
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(walletEndpoint, { address: scene.alice, chain: "base" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.isContract, false);
  assert.ok(data.txCount >= 12);
  assert.equal(data.native.symbol, "ETH");
  assert.ok(Number(data.native.balance) > 9_999 && Number(data.native.balance) < 10_000);
  assert.deepEqual(
    data.tokens.map((x: any) => [x.token, x.symbol, x.balanceFormatted, x.priceUsd, x.valueUsd]),
    [
      [testDai, "DAI", "1000000", null, null],
      [scene.usdc, "USDC", "1000000", 1, 1_000_000],
      [scene.token, "TTK", "999750", null, null],
    ],
  );
  assert.deepEqual(data.nfts, [{ token: scene.nft, symbol: "TNFT", count: 1 }]);
  assert.equal(data.totalUsd, Math.round((data.native.valueUsd! + 1_000_000) * 100) / 100);
});

test("wallet: a testnet wallet is not priced and calls no price API", async (t) => {
  const api = await serveFixtures(t, []);
  const data = (
    (await (await serviceWith(api.url)).call(walletEndpoint, { address: scene.bob, chain: "base-sepolia" })).body as any
  ).data;
  assert.deepEqual(
    data.tokens.map((x: any) => [x.symbol, x.balanceFormatted]),
    [
      ["DAI", "1000000"],
      ["USDC", "1000000"],
      ["TTK", "250"],
    ],
  );
  assert.deepEqual(data.nfts, [{ token: scene.nft, symbol: "TNFT", count: 1 }]);
  assert.equal(data.totalUsd, 0);
  assert.equal(api.calls.length, 0);
});

test("wallet: a failing price API is a 502; a bad address a 400 calling nothing", async (t) => {
  const api = await serveFixtures(
    t,
    [prices(["coingecko:ethereum", `base:${testDai}`, `base:${scene.usdc}`], "down", 500)],
    {
      reuse: true,
    },
  );
  const service = await serviceWith(api.url);
  assert.equal((await service.call(walletEndpoint, { address: scene.carol, chain: "base" })).status, 502);
  const before = api.calls.length;
  assert.equal((await service.request("/v1/wallet?address=0xnope&chain=base")).status, 400);
  assert.equal(api.calls.length, before);
});

test("wallet-age: dated by the first sent transaction", async () => {
  const service = await startTestService({ plugins: ["onchain"], env: scene.env });
  const out = await service.call(walletAge, { address: scene.alice, chain: "base-sepolia" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.basis, data.firstBlock, data.active],
    ["first-sent-tx", Number(scene.blocks.deployToken), true],
  );
  assert.match(data.firstSeenAt!, /^\d{4}-\d\d-\d\dT/);
  assert.ok(data.ageDays! >= 0 && data.ageDays! < 1);
});

test("wallet-age: a wallet that only received, and one never used", async () => {
  const service = await startTestService({ plugins: ["onchain"], env: scene.env });
  const fundedOut = await service.call(walletAge, { address: scene.bob, chain: "base-sepolia" });
  assert.equal(fundedOut.status, 200, JSON.stringify(fundedOut.body));
  const funded = dataOf(fundedOut);
  assert.deepEqual([funded.basis, funded.firstBlock, funded.txCount], ["first-balance", 0, 0]);
  const unused = (
    (await service.call(walletAge, { address: "0x000000000000000000000000000000000000dEaD", chain: "base-sepolia" }))
      .body as any
  ).data;
  assert.deepEqual([unused.active, unused.basis, unused.firstBlock, unused.ageDays], [false, null, null, null]);
  assert.equal((await service.request("/v1/wallet-age?address=0x1234&chain=base-sepolia")).status, 400);
});
