import { test } from "node:test";
import assert from "node:assert/strict";
import type { Fixture } from "../../helpers/fixtures.ts";
import { plannedDevnet } from "../../../core/x402/devnet/index.ts";
import { startScene } from "../onchain/_devnet.ts";
import { bundleService, dataOf, expectFree400, failing, statuses } from "./_bundles.ts";

// base and base-sepolia on anvil; ethereum's node is down (a closed port).
const scene = await startScene(["base", "base-sepolia"]);
const testDai = plannedDevnet([]).tokens.dai;
const ONLY = { plugins: ["bundles", "market", "onchain"], env: scene.env };
const PEPE = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const TOKEN = [
  "goplus.token-security-pepe",
  "honeypot-is.pepe",
  "blockscout.token-pepe",
  "blockscout.token-holders-pepe",
].map((n) => `onchain/${n}`);

test("defi-scan: GoPlus, the honeypot simulation, holders, rug score and chain TVL; the node-backed parts fail in place", async (t) => {
  const { service } = await bundleService(
    t,
    [...TOKEN, "market/defillama.chains", "market/defillama.historical-ethereum"],
    ONLY,
  );
  const data = dataOf(await service.call("defi-scan", { address: PEPE }));
  assert.deepEqual(statuses(data), {
    contract: 502,
    tokenSecurity: 200,
    honeypot: 200,
    holders: 200,
    rugCheck: 200,
    proxy: 502,
    tvl: 200,
  });
  assert.deepEqual(data.skipped, [{ part: "dapp", reason: "pass url (the project's site) for the dApp check" }]);
  const rug = data.parts.rugCheck.data;
  const raised = rug.factors.filter((f: any) => f.raised);
  assert.deepEqual(
    data.summary.evidence,
    raised.map((f: any) => ({ part: "rugCheck", finding: f.label, points: f.points })),
  );
  assert.equal(
    data.summary.score,
    Math.min(
      100,
      raised.reduce((s: number, f: any) => s + f.points, 0),
    ),
  );
  assert.equal(data.summary.verified, null);
  assert.equal(data.summary.upgradeable, null);
});

test("defi-scan: GoPlus down fails token-security and rug-check in place; the honeypot and holders still answer", async (t) => {
  const goplusDown = failing(
    `/v1/token_security/1?contract_addresses=${PEPE.toLowerCase()}`,
    500,
    "https://docs.gopluslabs.io/reference/api-overview",
  );
  const { service } = await bundleService(
    t,
    [goplusDown, ...TOKEN.slice(1), "market/defillama.chains", "market/defillama.historical-ethereum"],
    ONLY,
  );
  const data = dataOf(await service.call("defi-scan", { address: PEPE, chain: "ethereum" }));
  assert.equal(data.parts.tokenSecurity.ok, false);
  assert.equal(data.parts.rugCheck.ok, false);
  assert.equal(data.parts.honeypot.status, 200);
  assert.ok(data.failed.includes("tokenSecurity") && data.failed.includes("rugCheck"));
  // Without rug-check the score comes from the parts that answered: PEPE's honeypot simulation passes.
  assert.ok(data.summary.evidence.every((e: any) => e.part !== "rugCheck"));
});

test("defi-scan and onchain-portfolio: bad input is a free 400", async (t) => {
  const { api, service } = await bundleService(t, [], ONLY);
  await expectFree400(await service.request("/v1/defi-scan?address=0x12"), "address");
  await expectFree400(await service.request(`/v1/defi-scan?address=${PEPE}&chain=solana`), "chain");
  await expectFree400(await service.request(`/v1/onchain-portfolio?address=${PEPE}&chains=base,solana`), "chains");
  assert.equal(api.calls.length, 0);
});

test("onchain-portfolio: wallets and approvals per chain, totals and allocation; a chain whose node is down fails in place", async (t) => {
  const prices: Fixture = {
    source:
      "https://api-docs.defillama.com/#tag/coins/GET/prices/current/{coins} ({coins: {id: {price, symbol, decimals?, timestamp, confidence}}})",
    request: {
      method: "GET",
      // The devnet's test DAI (a payment token, minted to every dev account) is found first and left unpriced.
      path: `/defillama-coins/prices/current/coingecko:ethereum,base:${testDai},base:${scene.usdc},base:${scene.token}`,
    },
    response: {
      status: 200,
      body: {
        coins: {
          "coingecko:ethereum": { price: 3000, symbol: "ETH", timestamp: 1736900000, confidence: 0.99 },
          [`base:${scene.usdc}`]: { decimals: 6, price: 1, symbol: "USDC", timestamp: 1736900000, confidence: 0.99 },
        },
      },
    },
  };
  const { service } = await bundleService(t, [prices], ONLY);
  const data = dataOf(
    await service.call("onchain-portfolio", { address: scene.alice, chains: "base,base-sepolia,ethereum" }),
  );
  assert.deepEqual(statuses(data), {
    "wallet-base": 200,
    "approvals-base": 200,
    "wallet-base-sepolia": 200,
    "approvals-base-sepolia": 200,
    "wallet-ethereum": 502,
    "approvals-ethereum": 502,
  });
  const base = data.parts["wallet-base"].data;
  assert.equal(data.summary.totalUsd, base.totalUsd);
  assert.deepEqual(
    data.summary.chains.map((c: any) => [c.chain, c.sharePercent]),
    [
      ["base", 100],
      ["base-sepolia", 0],
    ],
  );
  assert.deepEqual(
    data.summary.topHoldings.map((h: any) => h.symbol),
    ["ETH", "USDC"],
  );
  const unlimited = ["base", "base-sepolia"].reduce(
    (n, c) => n + data.parts[`approvals-${c}`].data.approvals.filter((a: any) => a.unlimited).length,
    0,
  );
  assert.ok(unlimited > 0);
  assert.equal(data.summary.unlimitedApprovals, unlimited);
});
