import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { startScene } from "./_devnet.ts";
import { dataOf } from "../../helpers/expect.ts";
import contractEndpoint from "../../../plugins/onchain/contract.ts";
import gasEndpoint from "../../../plugins/onchain/gas.ts";
import gasHistory from "../../../plugins/onchain/gas-history.ts";
import proxyDetect from "../../../plugins/onchain/proxy-detect.ts";

const scene = await startScene(["base-sepolia"]);
const chain = "base-sepolia";
const service = await startTestService({ plugins: ["onchain"], env: scene.env });

const sourcify = (address: string, status: number, body: unknown): Fixture => ({
  source:
    "https://sourcify.dev/server/api-docs/#/Contract%20Lookup/get_v2_contract__chainId___address_ (200 {match, creationMatch, runtimeMatch, verifiedAt, chainId, address, compilation}; 404 {customCode, message, errorId})",
  request: { method: "GET", path: `/v2/contract/84532/${address}?fields=compilation` },
  response: { status, body },
});

test("gas: fees from the node's fee history", async () => {
  const out = await service.call(gasEndpoint, { chain });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.chain, chain);
  assert.equal(data.block, Number(scene.blocks.latest));
  assert.ok(Number(data.baseFeeGwei) > 0);
  assert.ok(Number(data.maxFeeGwei.standard) >= 2 * Number(data.baseFeeGwei));
  assert.equal(data.transferCost.gas, 21000);
});

test("gas-history: one row per block, oldest first, with a summary", async () => {
  const out = await service.call(gasHistory, { chain, blocks: 5 });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.blocks.length, 5);
  assert.equal(data.toBlock, Number(scene.blocks.latest));
  assert.equal(data.fromBlock, data.toBlock - 4);
  assert.deepEqual(
    data.blocks.map((b: any) => b.block),
    [0, 1, 2, 3, 4].map((i) => data.fromBlock + i),
  );
  assert.ok(Number(data.baseFeeGwei.min) <= Number(data.baseFeeGwei.max));
});

test("gas-history: more than 1024 blocks is a 400", async () => {
  const res = await service.request(`/v1/gas-history?chain=${chain}&blocks=2000`);
  assert.equal(res.status, 400);
  assert.ok((await res.json()).error.details.issues.some((i: any) => i.field === "blocks"));
});

test("proxy-detect: an EIP-1967 proxy with its implementation and admin", async () => {
  const out = await service.call(proxyDetect, { address: scene.proxy, chain });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.standard, "eip-1967");
  assert.equal(data.implementation, scene.token);
  assert.equal(data.implementationIsContract, true);
  assert.equal(data.admin, scene.bob);
});

test("proxy-detect: an EIP-1167 clone, a plain contract and a wallet", async () => {
  const clone = (await service.call(proxyDetect, { address: scene.clone, chain })).body as any;
  assert.deepEqual([clone.data.standard, clone.data.implementation], ["eip-1167", scene.token]);
  const plain = (await service.call(proxyDetect, { address: scene.token, chain })).body as any;
  assert.deepEqual([plain.data.isContract, plain.data.isProxy, plain.data.standard], [true, false, null]);
  const wallet = (await service.call(proxyDetect, { address: scene.alice, chain })).body as any;
  assert.deepEqual([wallet.data.isContract, wallet.data.isProxy], [false, false]);
});

test("contract: a verified ERC-20 profile, code from the node and verification from Sourcify", async (t) => {
  const api = await serveFixtures(t, [
    sourcify(scene.token, 200, {
      match: "exact_match",
      creationMatch: "exact_match",
      runtimeMatch: "exact_match",
      verifiedAt: "2025-01-14T10:00:00Z",
      chainId: "84532",
      address: scene.token,
      matchId: "1",
      compilation: {
        language: "Solidity",
        compiler: "solc",
        compilerVersion: "0.8.28+commit.7893614a",
        name: "TestToken",
        fullyQualifiedName: "TestToken.sol:TestToken",
      },
    }),
  ]);
  const out = await (
    await startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_SOURCIFY_URL: api.url } })
  ).call(contractEndpoint, { address: scene.token, chain });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.tokenStandard, "erc20");
  assert.ok(data.codeSize > 100);
  assert.match(data.codeHash, /^0x[0-9a-f]{64}$/);
  assert.equal(data.proxy.isProxy, false);
  assert.equal(data.verified, true);
  assert.deepEqual(data.verification, {
    match: "exact_match",
    name: "TestToken",
    language: "Solidity",
    compilerVersion: "0.8.28+commit.7893614a",
    verifiedAt: "2025-01-14T10:00:00Z",
    url: `https://repo.sourcify.dev/84532/${scene.token}`,
  });
});

test("contract: an unverified NFT and a proxy", async (t) => {
  const missing = {
    customCode: "not_found",
    message: "Contract not found",
    errorId: "5f1c3e2a-0000-4000-8000-000000000000",
  };
  const api = await serveFixtures(t, [sourcify(scene.nft, 404, missing), sourcify(scene.proxy, 404, missing)]);
  const svc = await startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_SOURCIFY_URL: api.url } });
  const nft = (await svc.call(contractEndpoint, { address: scene.nft, chain })).body as any;
  assert.deepEqual([nft.data.tokenStandard, nft.data.verified, nft.data.verification], ["erc721", false, null]);
  const proxy = (await svc.call(contractEndpoint, { address: scene.proxy, chain })).body as any;
  assert.deepEqual(
    [proxy.data.proxy.standard, proxy.data.proxy.implementation, proxy.data.tokenStandard],
    ["eip-1967", scene.token, "erc20"],
  );
});

test("contract: a wallet address is a 404; a failing Sourcify a 502", async (t) => {
  const api = await serveFixtures(t, [sourcify(scene.token, 503, "unavailable")], { reuse: true });
  const svc = await startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_SOURCIFY_URL: api.url } });
  assert.equal((await svc.call(contractEndpoint, { address: scene.alice, chain })).status, 404);
  const failed = await svc.call(contractEndpoint, { address: scene.token, chain });
  assert.equal(failed.status, 502);
});

test("proxy-detect and contract: bad input is a 400 before anything is called", async (t) => {
  const api = await serveFixtures(t, []);
  const svc = await startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_SOURCIFY_URL: api.url } });
  for (const path of [
    `/v1/proxy-detect?address=${scene.proxy}&chain=mainnet`,
    `/v1/contract?address=0xzz&chain=base`,
    "/v1/contract?chain=base",
  ]) {
    const res = await svc.request(path);
    assert.equal(res.status, 400, path);
  }
  assert.equal(api.calls.length, 0);
});
