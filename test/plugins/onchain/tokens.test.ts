import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { startScene } from "./_devnet.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import approvalsEndpoint from "../../../plugins/onchain/approvals.ts";
import eventLogs from "../../../plugins/onchain/event-logs.ts";
import tokenInfo from "../../../plugins/onchain/token-info.ts";

const scene = await startScene(["base-sepolia", "base"]);
const llama = (path: string, body: unknown, status = 200): Fixture => ({
  source:
    "https://api-docs.defillama.com/#tag/coins/GET/prices/current/{coins} ({coins: {chain:address: {decimals, symbol, price, timestamp, confidence}}})",
  request: { method: "GET", path },
  response: { status, body },
});
const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_DEFILLAMA_COINS_URL: url } });

test("token-info: reads an ERC-20 from the node and prices it with DefiLlama", async (t) => {
  const coin = `base:${scene.token}`;
  const api = await serveFixtures(t, [
    llama(`/prices/current/${coin}`, {
      coins: { [coin]: { decimals: 18, symbol: "TTK", price: 0.25, timestamp: 1736900000, confidence: 0.99 } },
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(tokenInfo, {
    address: scene.token.toLowerCase(),
    chain: "base",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    chain: "base",
    address: scene.token,
    name: "Test Token",
    symbol: "TTK",
    decimals: 18,
    totalSupply: "1000000000000000000000000",
    totalSupplyFormatted: "1000000",
    priceUsd: 0.25,
    priceConfidence: 0.99,
    marketCapUsd: 250000,
  });
});

test("token-info: a testnet token has no price and calls no price API", async (t) => {
  const api = await serveFixtures(t, []);
  const out = await (await serviceWith(api.url)).call(tokenInfo, { address: scene.token, chain: "base-sepolia" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.equal(dataOf(out).symbol, "TTK");
  assert.equal(dataOf(out).priceUsd, null);
  assert.equal(api.calls.length, 0);
});

test("token-info: an address without code is a 404", async (t) => {
  const api = await serveFixtures(t, []);
  const out = await (await serviceWith(api.url)).call(tokenInfo, { address: scene.fresh, chain: "base-sepolia" });
  assert.equal(out.status, 404, JSON.stringify(out.body));
});

test("token-info: a failing price API is a 502", async (t) => {
  const api = await serveFixtures(t, [llama(`/prices/current/base:${scene.token}`, "upstream down", 500)], {
    reuse: true,
  });
  const out = await (await serviceWith(api.url)).call(tokenInfo, { address: scene.token, chain: "base" });
  assert.equal(out.status, 502);
});

test("token-info: a dead node is a 502 naming the node", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  const out = await service.call(tokenInfo, { address: scene.token, chain: "sepolia" });
  assert.equal(out.status, 502, JSON.stringify(out.body));
  assert.equal(errorOf(out).details?.upstream, "sepolia-rpc");
});

test("token-info: bad addresses and chains are a free 400 before anything is called", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [query, field] of [
    [`address=0x123&chain=base`, "address"],
    [`address=${scene.token}&chain=solana`, "chain"],
    [`chain=base`, "address"],
  ]) {
    const res = await service.request(`/v1/token-info?${query}`);
    assert.equal(res.status, 400, query);
    const body = await res.json();
    assert.ok(
      body.error.details.issues.some((i: any) => i.field === field),
      JSON.stringify(body),
    );
    if (field === "chain") assert.match(JSON.stringify(body), /ethereum, base, optimism/);
  }
  assert.equal(api.calls.length, 0);
});

const node = await startTestService({ plugins: ["onchain"], env: scene.env });

test("event-logs: every log of the token in the default range, ERC-20 events decoded", async () => {
  const out = await node.call(eventLogs, { address: scene.token, chain: "base-sepolia" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.fromBlock, 0);
  assert.equal(data.total, 6, "mint, transfer and four approvals");
  assert.deepEqual(
    data.logs.map((l: any) => l.event),
    ["Transfer", "Transfer", "Approval", "Approval", "Approval", "Approval"],
  );
  const transfer = data.logs[1];
  assert.equal(transfer.txHash, scene.tx.transfer);
  assert.deepEqual(transfer.args, { from: scene.alice, to: scene.bob, value: "250000000000000000000" });
});

test("event-logs: filtered and decoded by a given event, newest kept under the limit", async () => {
  const out = await node.call(eventLogs, {
    address: scene.token,
    chain: "base-sepolia",
    event: "Approval(address indexed owner, address indexed spender, uint256 value)",
    limit: 2,
  });
  const data = dataOf(out);
  assert.deepEqual([data.total, data.truncated, data.logs.length], [4, true, 2]);
  assert.deepEqual(
    data.logs.map((l: any) => [l.args.spender, l.args.value]),
    [
      [scene.dave, "5000000000000000000"],
      [scene.dave, "0"],
    ],
  );
});

test("event-logs: a bad range or event is a 400", async () => {
  const reversed = await node.call(eventLogs, {
    address: scene.token,
    chain: "base-sepolia",
    fromBlock: "10",
    toBlock: "5",
  });
  assert.equal(reversed.status, 400);
  const bad = await node.request(`/v1/event-logs?address=${scene.token}&chain=base-sepolia&event=Transfer`);
  assert.equal(bad.status, 400);
  assert.ok((await bad.json()).error.details.issues.some((i: any) => i.field === "event"));
  assert.equal((await node.request(`/v1/event-logs?address=${scene.token}&fromBlock=yesterday`)).status, 400);
});

test("approvals: open ERC-20 allowances and NFT operators, revoked ones left out", async () => {
  const out = await node.call(approvalsEndpoint, { address: scene.alice.toLowerCase(), chain: "base-sepolia" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.owner, scene.alice);
  const brief = data.approvals.map((a: any) => [a.kind, a.token, a.spender, a.allowance, a.unlimited, a.symbol]);
  assert.deepEqual(brief, [
    ["erc20", scene.token, scene.carol, (2n ** 256n - 1n).toString(), true, "TTK"],
    ["erc20", scene.token, scene.bob, "100000000000000000000", false, "TTK"],
    ["erc721-all", scene.nft, scene.carol, null, true, "TNFT"],
  ]);
  assert.equal(data.approvals[0].approvedTx, scene.tx.approveUnlimited);
  assert.equal(data.approvals[1].allowanceFormatted, "100");
  assert.equal(data.approvals[2].approvedTx, scene.tx.approveNftAll);
  assert.deepEqual(data.approvals[0].revoke, {
    to: scene.token,
    data: `0x095ea7b3${scene.carol.slice(2).toLowerCase().padStart(64, "0")}${"0".repeat(64)}`,
    value: "0",
  });
});

test("approvals: a wallet that approved nothing has none; a bad address is a 400", async () => {
  const data = dataOf(await node.call(approvalsEndpoint, { address: scene.fresh, chain: "base-sepolia" }));
  assert.deepEqual([data.count, data.approvals], [0, []]);
  assert.equal((await node.request("/v1/approvals?address=alice.eth&chain=base-sepolia")).status, 400);
});
