import { test } from "node:test";
import assert from "node:assert/strict";
import { pad, toEventSelector } from "viem";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import approvalsEndpoint from "../../../plugins/onchain/approvals.ts";
import eventLogs from "../../../plugins/onchain/event-logs.ts";
import walletAge from "../../../plugins/onchain/wallet-age.ts";
import walletEndpoint from "../../../plugins/onchain/wallet.ts";

const OWNER = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const HEAD = 2_000_000;
const ETH_JSON_RPC = "https://ethereum.org/en/developers/docs/apis/json-rpc/#eth_getlogs";
const hex = (n: number) => `0x${n.toString(16)}`;
const rpc = (method: string, params: unknown[], answer: { result: unknown } | { error: unknown }): Fixture => ({
  source: ETH_JSON_RPC,
  request: { method: "POST", path: "/", body: { jsonrpc: "2.0", id: 1, method, params } },
  response: { status: 200, body: { jsonrpc: "2.0", id: 1, ...answer } },
});
const approvalTopics = [
  [toEventSelector("Approval(address,address,uint256)"), toEventSelector("ApprovalForAll(address,address,bool)")],
  pad(OWNER),
];
const getLogs = (from: number, to: number, answer: { result: unknown } | { error: unknown } = { result: [] }) =>
  rpc("eth_getLogs", [{ topics: approvalTopics, fromBlock: hex(from), toBlock: hex(to) }], answer);

test("approvals: one call scans the newest 100,000 blocks in pages of 10,000, halves a page the node refuses, and says where to resume", async (t) => {
  const pages = Array.from({ length: 10 }, (_, i) => HEAD - 99_999 + i * 10_000);
  const node = await serveFixtures(t, [
    rpc("eth_blockNumber", [], { result: hex(HEAD) }),
    // A node capped at 5,000 blocks (as some public nodes are) refuses the first page; its halves go through.
    getLogs(pages[0], pages[0] + 9_999, { error: { code: -32614, message: "eth_getLogs is limited to a 5000 range" } }),
    getLogs(pages[0], pages[0] + 4_999),
    getLogs(pages[0] + 5_000, pages[0] + 9_999),
    ...pages.slice(1).map((from) => getLogs(from, from + 9_999)),
  ]);
  const service = await startTestService({ plugins: ["onchain"], env: { UPSTREAM_BASE_RPC_URL: node.url } });
  const out = await service.call(approvalsEndpoint, { address: OWNER, chain: "base" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.fromBlock, data.toBlock, data.olderToBlock, data.count],
    [HEAD - 99_999, HEAD, HEAD - 100_000, 0],
  );
  const spans = node.calls
    .map((c) => JSON.parse(c.body))
    .filter((b) => b.method === "eth_getLogs")
    .map((b) => Number(b.params[0].toBlock) - Number(b.params[0].fromBlock) + 1);
  assert.equal(spans.length, 12);
  assert.ok(spans.every((span) => span <= 10_000));
});

test("event-logs: a range longer than one call's window scans its newest blocks and names the rest", async (t) => {
  const token = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  const from = HEAD - 149_999;
  const pages = Array.from({ length: 10 }, (_, i) => HEAD - 99_999 + i * 10_000);
  const node = await serveFixtures(t, [
    rpc("eth_blockNumber", [], { result: hex(HEAD) }),
    ...pages.map((start) =>
      rpc("eth_getLogs", [{ address: token, topics: [], fromBlock: hex(start), toBlock: hex(start + 9_999) }], {
        result: [],
      }),
    ),
  ]);
  const service = await startTestService({ plugins: ["onchain"], env: { UPSTREAM_BASE_RPC_URL: node.url } });
  const out = await service.call(eventLogs, { address: token, chain: "base", fromBlock: String(from) });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.fromBlock, data.toBlock, data.olderToBlock, data.total],
    [HEAD - 99_999, HEAD, HEAD - 100_000, 0],
  );
  assert.equal(node.calls.length, 11);
});

test("wallet-age: a node without old state answers from the oldest state it keeps and says the date is not exact", async (t) => {
  const at = (_what: string, block: number) => [OWNER, hex(block)];
  const pruned = { error: { code: -32000, message: "missing trie node (state is not available)" } };
  const batch = (calls: [string, unknown[], unknown][]): Fixture => ({
    source: ETH_JSON_RPC,
    request: {
      method: "POST",
      path: "/",
      body: calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params })),
    },
    response: { status: 200, body: calls.map(([, , result], id) => ({ jsonrpc: "2.0", id, result })) },
  });
  const node = await serveFixtures(t, [
    rpc("eth_blockNumber", [], { result: hex(16) }),
    batch([
      ["eth_getTransactionCount", at("nonce", 16), "0x5"],
      ["eth_getBalance", at("balance", 16), "0xde0b6b3a7640000"],
      ["eth_getCode", at("code", 16), "0x"],
    ]),
    // The node keeps state from block 10: older blocks are refused.
    rpc("eth_getTransactionCount", at("nonce", 8), pruned),
    rpc("eth_getTransactionCount", at("nonce", 12), { result: "0x2" }),
    rpc("eth_getTransactionCount", at("nonce", 10), { result: "0x1" }),
    rpc("eth_getTransactionCount", at("nonce", 9), pruned),
    rpc("eth_getBlockByNumber", [hex(10), false], {
      result: {
        number: hex(10),
        hash: `0x${"ab".repeat(32)}`,
        parentHash: `0x${"cd".repeat(32)}`,
        timestamp: hex(1_700_000_000),
        transactions: [],
        gasLimit: "0x1c9c380",
        gasUsed: "0x0",
        baseFeePerGas: "0x1",
        miner: "0x0000000000000000000000000000000000000000",
        difficulty: "0x0",
        size: "0x200",
        nonce: "0x0000000000000000",
        extraData: "0x",
        logsBloom: `0x${"00".repeat(256)}`,
        stateRoot: `0x${"00".repeat(32)}`,
        receiptsRoot: `0x${"00".repeat(32)}`,
        transactionsRoot: `0x${"00".repeat(32)}`,
        sha3Uncles: `0x${"00".repeat(32)}`,
        mixHash: `0x${"00".repeat(32)}`,
        uncles: [],
      },
    }),
  ]);
  const service = await startTestService({ plugins: ["onchain"], env: { UPSTREAM_BASE_RPC_URL: node.url } });
  const out = await service.call(walletAge, { address: OWNER, chain: "base" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.basis, data.exact, data.firstBlock, data.firstSeenAt],
    ["first-sent-tx", false, 10, "2023-11-14T22:13:20.000Z"],
  );
});

/**
 * A node of HEAD blocks that holds no logs, answering single and batched JSON-RPC requests (ETH_JSON_RPC) and
 * recording every eth_getLogs range: the wallet's reads arrive batched, in an order no fixture list should fix.
 */
async function emptyNode(t: { after: (fn: () => unknown) => void }) {
  const ranges: { topics: unknown[]; fromBlock: number; toBlock: number }[] = [];
  const answers: Record<string, (params: any[]) => unknown> = {
    eth_chainId: () => hex(84532),
    eth_blockNumber: () => hex(HEAD),
    eth_getBalance: () => "0x0",
    eth_getTransactionCount: () => "0x0",
    eth_getCode: () => "0x",
    // Multicall3's aggregate3 over no calls: an empty array of results, ABI-encoded (offset, then length 0).
    eth_call: () => `0x${"20".padStart(64, "0")}${"0".repeat(64)}`,
    eth_getLogs: ([filter]) => {
      ranges.push({ topics: filter.topics, fromBlock: Number(filter.fromBlock), toBlock: Number(filter.toBlock) });
      return [];
    },
  };
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const parsed = JSON.parse(raw);
    const reply = (r: { id: number; method: string; params?: unknown[] }) =>
      answers[r.method]
        ? { jsonrpc: "2.0", id: r.id, result: answers[r.method](r.params ?? []) }
        : { jsonrpc: "2.0", id: r.id, error: { code: -32601, message: `the method ${r.method} does not exist` } };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(reply) : reply(parsed)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ranges };
}

test("wallet: one call scans the newest 100,000 blocks for transfers in and out, in pages of 10,000, and says where to resume", async (t) => {
  const node = await emptyNode(t);
  const service = await startTestService({ plugins: ["onchain"], env: { UPSTREAM_BASE_SEPOLIA_RPC_URL: node.url } });
  const out = await service.call(walletEndpoint, { address: OWNER, chain: "base-sepolia" });
  const data = dataOf(out);
  assert.deepEqual([data.fromBlock, data.toBlock, data.olderToBlock], [HEAD - 99_999, HEAD, HEAD - 100_000]);
  const transfer = toEventSelector("Transfer(address,address,uint256)");
  for (const topics of [
    [transfer, null, pad(OWNER)],
    [transfer, pad(OWNER)],
  ]) {
    const pages = node.ranges
      .filter((r) => JSON.stringify(r.topics) === JSON.stringify(topics))
      .sort((a, b) => a.fromBlock - b.fromBlock);
    assert.equal(pages.length, 10);
    assert.ok(
      pages.every((p, i) => p.toBlock - p.fromBlock + 1 === 10_000 && p.fromBlock === HEAD - 99_999 + i * 10_000),
    );
  }
  assert.equal(node.ranges.length, 20);

  node.ranges.length = 0;
  const resumed = dataOf(
    await service.call(walletEndpoint, { address: OWNER, chain: "base-sepolia", toBlock: String(data.olderToBlock) }),
  );
  assert.deepEqual(
    [resumed.fromBlock, resumed.toBlock, resumed.olderToBlock],
    [HEAD - 199_999, HEAD - 100_000, HEAD - 200_000],
  );
  assert.equal(
    (await service.call(walletEndpoint, { address: OWNER, chain: "base-sepolia", fromBlock: "10", toBlock: "5" }))
      .status,
    400,
  );
});
