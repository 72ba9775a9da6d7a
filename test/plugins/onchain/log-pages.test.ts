import { test } from "node:test";
import assert from "node:assert/strict";
import { pad, toEventSelector } from "viem";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";

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
  const out = await service.call("approvals", { address: OWNER, chain: "base" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = (out.body as any).data;
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
  const out = await service.call("event-logs", { address: token, chain: "base", fromBlock: String(from) });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = (out.body as any).data;
  assert.deepEqual(
    [data.fromBlock, data.toBlock, data.olderToBlock, data.total],
    [HEAD - 99_999, HEAD, HEAD - 100_000, 0],
  );
  assert.equal(node.calls.length, 11);
});
