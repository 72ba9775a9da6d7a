import { test, after } from "node:test";
import assert from "node:assert/strict";
import {
  createTestClient,
  createWalletClient,
  encodeAbiParameters,
  http,
  keccak256,
  pad,
  parseEther,
  parseUnits,
  publicActions,
  toHex,
  type Address,
  type Hash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain, startDevnet } from "../../../core/x402/devnet/index.ts";
import { majorTokens } from "../../../plugins/onchain/_majors.ts";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { chainEnv } from "./_devnet.ts";
import { dataOf } from "../../helpers/expect.ts";
import whalesEndpoint from "../../../plugins/onchain/whales.ts";

// Base's real USDC address, with the test ERC-20's code planted there: the whale watch follows canonical addresses.
const BASE_USDC: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const [devnet, tokenArtifact] = await Promise.all([
  startDevnet(),
  compileContract("TestToken", new URL("./contracts/", import.meta.url)),
]);
after(() => devnet.stop());

const chain = devnetChain(devnet.rpcUrl);
const anvil = createTestClient({ chain, mode: "anvil", transport: http(devnet.rpcUrl) }).extend(publicActions);
const [whale, bob, carol] = devnet.accounts.others;
const wallet = createWalletClient({
  chain,
  transport: http(devnet.rpcUrl),
  account: privateKeyToAccount(whale.privateKey),
});
await anvil.setCode({ address: BASE_USDC, bytecode: tokenArtifact.deployedBytecode });
// TestToken's layout: decimals in slot 2, balanceOf in slot 4.
await anvil.setStorageAt({ address: BASE_USDC, index: toHex(2, { size: 32 }), value: pad(toHex(6)) });
await anvil.setStorageAt({
  address: BASE_USDC,
  index: keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [whale.address, 4n])),
  value: pad(toHex(parseUnits("1000000", 6))),
});
const mined = async (hash: Hash) =>
  (await anvil.waitForTransactionReceipt({ hash, pollingInterval: 20 })).transactionHash;
const bigUsdc = await mined(
  await wallet.writeContract({
    address: BASE_USDC,
    abi: tokenArtifact.abi,
    functionName: "transfer",
    args: [bob.address, parseUnits("250000", 6)],
  }),
);
await mined(
  await wallet.writeContract({
    address: BASE_USDC,
    abi: tokenArtifact.abi,
    functionName: "transfer",
    args: [carol.address, parseUnits("500", 6)],
  }),
);
const bigEth = await mined(await wallet.sendTransaction({ to: carol.address, value: parseEther("150") }));
await mined(await wallet.sendTransaction({ to: bob.address, value: parseEther("1") }));

const coins = ["coingecko:ethereum", ...majorTokens.base!.map((t) => `base:${t.address.toLowerCase()}`)];
const prices = (status: number, body: unknown): Fixture => ({
  source:
    "https://api-docs.defillama.com/#tag/coins/GET/prices/current/{coins} ({coins: {id: {price, symbol, decimals?, timestamp, confidence}}})",
  request: { method: "GET", path: `/prices/current/${coins.join(",")}` },
  response: { status, body },
});
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    env: { ...chainEnv(["base"], devnet.rpcUrl), UPSTREAM_DEFILLAMA_COINS_URL: url },
  });

test("whales: native and major-token transfers above minUsd, largest first", async (t) => {
  const api = await serveFixtures(t, [
    prices(200, {
      coins: {
        "coingecko:ethereum": { price: 3000, symbol: "ETH", timestamp: 1736900000, confidence: 0.99 },
        [`base:${BASE_USDC}`]: { decimals: 6, price: 0.9999, symbol: "USDC", timestamp: 1736900000, confidence: 0.99 },
      },
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(whalesEndpoint, { chain: "base", minUsd: 10_000, blocks: 10 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    data.transfers.map((x: any) => [x.hash, x.asset, x.token, x.from, x.to, x.amount, x.valueUsd]),
    [
      [bigEth, "ETH", null, whale.address, carol.address, "150", 450_000],
      [bigUsdc, "USDC", BASE_USDC, whale.address, bob.address, "250000", 249_975],
    ],
  );
  assert.match(data.transfers[0].time!, /^\d{4}-\d\d-\d\dT/);
  assert.equal(data.totalUsd, 699_975);
  assert.deepEqual(data.unpriced, ["USDbC", "DAI", "WETH", "cbBTC"]);
  assert.equal(data.toBlock - data.fromBlock, 9);
});

test("whales: a failing price API is a 502", async (t) => {
  const api = await serveFixtures(t, [prices(500, "down")], { reuse: true });
  const out = await (await serviceWith(api.url)).call(whalesEndpoint, { chain: "base", blocks: 5 });
  assert.equal(out.status, 502);
});

test("whales: an unpriced chain or a tiny minUsd is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    ["/v1/whales?chain=sepolia", "chain"],
    ["/v1/whales?minUsd=5", "minUsd"],
    ["/v1/whales?blocks=500", "blocks"],
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
