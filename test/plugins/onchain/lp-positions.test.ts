import { test, after } from "node:test";
import assert from "node:assert/strict";
import {
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  parseUnits,
  publicActions,
  type Abi,
  type Address,
  type Hash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain, startDevnet } from "../../../core/x402/devnet/index.ts";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { chainEnv } from "./_devnet.ts";
import { dataOf } from "../../helpers/expect.ts";
import lpPositions from "../../../plugins/onchain/lp-positions.ts";

// Uniswap's Base NonfungiblePositionManager address, with a minimal position manager planted there (contracts/TestPositionManager.sol).
const MANAGER: Address = "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1";
const contracts = new URL("./contracts/", import.meta.url);
const [devnet, tokenArtifact, managerArtifact, poolArtifact] = await Promise.all([
  startDevnet(),
  compileContract("TestToken", contracts),
  compileContract("TestPositionManager", contracts),
  compileContract("TestV3Pool", contracts),
]);
after(() => devnet.stop());

const chain = devnetChain(devnet.rpcUrl);
const anvil = createTestClient({ chain, mode: "anvil", transport: http(devnet.rpcUrl) }).extend(publicActions);
const [lp, nobody] = devnet.accounts.others;
const wallet = createWalletClient({
  chain,
  transport: http(devnet.rpcUrl),
  account: privateKeyToAccount(lp.privateKey),
});
const mined = async (hash: Hash) => anvil.waitForTransactionReceipt({ hash, pollingInterval: 20 });
const deploy = async (artifact: { abi: Abi; bytecode: `0x${string}` }, args: unknown[]) =>
  getAddress(
    (await mined(await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args })))
      .contractAddress!,
  );
const write = async (functionName: string, args: unknown[]) =>
  mined(await wallet.writeContract({ address: MANAGER, abi: managerArtifact.abi, functionName, args }));

await anvil.setCode({ address: MANAGER, bytecode: managerArtifact.deployedBytecode });
const a = await deploy(tokenArtifact, ["Alpha", "AAA", 18, parseUnits("1000000", 18)]);
const b = await deploy(tokenArtifact, ["Beta", "BBB", 18, parseUnits("1000000", 18)]);
const c = await deploy(tokenArtifact, ["Gamma", "CCC", 18, parseUnits("1000000", 18)]);
const [t0, t1] = [a, b].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));
const [u0, u1] = [a, c].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));
const Q96 = 2n ** 96n;
const pool = await deploy(poolArtifact, [Q96, 0]); // price 1, tick 0
const otherPool = await deploy(poolArtifact, [Q96, 0]);
await write("setPool", [t0, t1, 3000, pool]);
await write("setPool", [u0, u1, 500, otherPool]);
const L = 10n ** 18n;
const position = (
  token0: Address,
  token1: Address,
  fee: number,
  tickLower: number,
  tickUpper: number,
  liquidity: bigint,
  owed: [bigint, bigint],
  accrued: [bigint, bigint],
) => ({
  token0,
  token1,
  fee,
  tickLower,
  tickUpper,
  liquidity,
  tokensOwed0: owed[0],
  tokensOwed1: owed[1],
  accrued0: accrued[0],
  accrued1: accrued[1],
});
await write("mint", [lp.address, 7n, position(t0, t1, 3000, -60, 60, L, [10n ** 15n, 0n], [0n, 2n * 10n ** 15n])]);
await write("mint", [lp.address, 8n, position(t0, t1, 3000, 600, 1200, L, [0n, 0n], [0n, 0n])]);
await write("mint", [lp.address, 9n, position(t0, t1, 3000, -60, 60, 0n, [0n, 0n], [0n, 0n])]);
await write("mint", [lp.address, 10n, position(u0, u1, 500, -10, 10, L, [0n, 0n], [0n, 0n])]);

const prices = (coins: Address[], status: number, body: unknown): Fixture => ({
  source:
    "https://api-docs.defillama.com/#tag/coins/GET/prices/current/{coins} ({coins: {id: {price, symbol, decimals?, timestamp, confidence}}})",
  request: { method: "GET", path: `/prices/current/${coins.map((x) => `base:${x}`).join(",")}` },
  response: { status, body },
});
const priced = {
  coins: {
    [`base:${a}`]: { decimals: 18, price: 2, symbol: "AAA", timestamp: 1736900000, confidence: 0.99 },
    [`base:${b}`]: { decimals: 18, price: 2, symbol: "BBB", timestamp: 1736900000, confidence: 0.99 },
  },
};
const serviceWith = (url: string) =>
  startTestService({
    plugins: ["onchain"],
    env: { ...chainEnv(["base"], devnet.rpcUrl), UPSTREAM_DEFILLAMA_COINS_URL: url },
  });
const close = (actual: string, expected: number) =>
  assert.ok(Math.abs(Number(actual) - expected) < expected * 1e-9, `${actual} vs ${expected}`);

test("lp-positions: in-range and out-of-range positions with amounts, fees from collect() and USD values", async (t) => {
  const api = await serveFixtures(t, [prices([t0, t1, u0 === t0 || u0 === t1 ? u1 : u0], 200, priced)]);
  const out = await (await serviceWith(api.url)).call(lpPositions, {
    address: lp.address.toLowerCase(),
    chain: "base",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual([data.totalPositions, data.closedPositions, data.positionManager], [4, 1, MANAGER]);
  assert.deepEqual(
    data.positions.map((p: any) => [p.tokenId, p.pool, p.feeTier, p.inRange, p.currentTick]),
    [
      ["7", pool, 3000, true, 0],
      ["8", pool, 3000, false, 0],
      ["10", otherPool, 500, true, 0],
    ],
  );
  const [inRange, above, unpriced] = data.positions;
  // Liquidity L between ticks -60 and 60 at price 1: L * (1 - 1.0001^-30) of each token.
  close(inRange.token0.amount!, 1 - 1.0001 ** -30);
  close(inRange.token1.amount!, 1 - 1.0001 ** -30);
  assert.deepEqual([inRange.token0.fees, inRange.token1.fees], ["0.001", "0.002"]);
  assert.equal(inRange.feesUsd, 0.01);
  assert.equal(inRange.valueUsd, Math.round(4 * (1 - 1.0001 ** -30) * 100) / 100);
  // Above the price the position is all token0: L * (1.0001^-300 - 1.0001^-600).
  close(above.token0.amount!, 1.0001 ** -300 - 1.0001 ** -600);
  assert.equal(above.token1.amount, "0");
  assert.equal(Number(above.priceLower!.toFixed(4)), Number((1.0001 ** 600).toFixed(4)));
  assert.equal(unpriced.valueUsd, null);
  assert.equal(
    data.totalUsd,
    Math.round((inRange.valueUsd + inRange.feesUsd + above.valueUsd! + above.feesUsd!) * 100) / 100,
  );
});

test("lp-positions: the pair filter, in either order; a wallet without positions calls no price API", async (t) => {
  const api = await serveFixtures(t, [prices([t0, t1], 200, priced)]);
  const service = await serviceWith(api.url);
  const data = (
    (await service.call(lpPositions, { address: lp.address, chain: "base", pair: "bbb/AAA", limit: 1 })).body as any
  ).data;
  assert.deepEqual(
    data.positions.map((p: any) => p.tokenId),
    ["7"],
  );
  const empty = dataOf(await service.call(lpPositions, { address: nobody.address, chain: "base" }));
  assert.deepEqual([empty.totalPositions, empty.positions, empty.totalUsd], [0, [], 0]);
  assert.equal(api.calls.length, 1);
});

test("lp-positions: a failing price API is a 502; bad input a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, [prices([t0, t1], 503, "busy")], { reuse: true });
  const service = await serviceWith(api.url);
  const out = await service.call(lpPositions, { address: lp.address, chain: "base", pair: "AAA/BBB" });
  assert.equal(out.status, 502);
  const before = api.calls.length;
  for (const [path, field] of [
    ["/v1/lp-positions?address=0x12", "address"],
    [`/v1/lp-positions?address=${lp.address}&chain=gnosis`, "chain"],
    [`/v1/lp-positions?address=${lp.address}&pair=WETH`, "pair"],
  ]) {
    const res = await service.request(path);
    assert.equal(res.status, 400, path);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      path,
    );
  }
  assert.equal(api.calls.length, before);
});
