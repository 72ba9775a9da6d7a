import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import contractAudit from "../../../plugins/onchain/contract-audit.ts";

const serviceWith = (url: string) => startTestService({ plugins: ["onchain"], env: { UPSTREAM_SOURCIFY_URL: url } });
const TOKEN = "0x4444444444444444444444444444444444444444";
const path = `/v2/contract/56/${TOKEN}?fields=sources,compilation,proxyResolution`;
const sourcify = (status: number, body: unknown): Fixture => ({
  source:
    "https://sourcify.dev/server/api-docs/#/Contract%20Lookup/get_v2_contract__chainId___address_ (fields=sources,compilation,proxyResolution)",
  request: { method: "GET", path },
  response: { status, body },
});
const risky = [
  "pragma solidity ^0.8.19;",
  "contract MoonToken {",
  "    address owner;",
  "    modifier onlyOwner() { require(tx.origin == owner); _; }",
  "    // function kill() external { selfdestruct(payable(owner)); }",
  "    function mint(address to, uint256 amount) external onlyOwner { balanceOf[to] += amount; }",
  "    function setSellFee(uint256 fee) external onlyOwner { sellFee = fee; }",
  "    function setBots(address[] calldata bots) external onlyOwner {}",
  "    function sweep(address to) external onlyOwner {",
  '        to.call{value: address(this).balance}("");',
  "    }",
  "}",
].join("\n");

test("contract-audit: each finding with its file, line and matched code, and a score from them", async (t) => {
  const api = await serveFixtures(t, [
    sourcify(200, {
      match: "exact_match",
      chainId: "56",
      address: TOKEN,
      sources: { "contracts/MoonToken.sol": { content: risky } },
      compilation: { language: "Solidity", compilerVersion: "0.8.19+commit.7dd6d404", name: "MoonToken" },
      proxyResolution: { isProxy: false, implementations: [] },
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(contractAudit, { address: TOKEN, chain: "bsc" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    data.findings.map((f: any) => f.id),
    ["tx-origin-auth", "owner-mint", "blacklist", "fee-setter", "unchecked-call"],
  );
  assert.deepEqual(data.findings[0].locations, [
    { file: "contracts/MoonToken.sol", line: 4, evidence: "require(tx.origin ==" },
  ]);
  assert.equal(data.findings.find((f: any) => f.id === "owner-mint")!.locations[0].line, 6);
  assert.ok(!data.findings.some((f: any) => f.id === "selfdestruct"), "commented-out code is not a finding");
  assert.deepEqual([data.score, data.level, data.filesReviewed, data.name], [80, "high", 1, "MoonToken"]);
  assert.ok(data.findings.every((f: any) => f.source === "sourcify verified source" && f.points > 0));
});

test("contract-audit: an unverified contract is a 404; a Sourcify outage a 502", async (t) => {
  const api = await serveFixtures(t, [sourcify(404, { customCode: "not_found", message: "not found", errorId: "x" })]);
  assert.equal((await (await serviceWith(api.url)).call(contractAudit, { address: TOKEN, chain: "bsc" })).status, 404);
  const down = await serveFixtures(t, [sourcify(500, "error")], { reuse: true });
  const failed = await (await serviceWith(down.url)).call(contractAudit, { address: TOKEN, chain: "bsc" });
  assert.equal(failed.status, 502);
});

test("contract-audit: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const res = await (await serviceWith(api.url)).request("/v1/contract-audit?address=0xZZ");
  assert.equal(res.status, 400);
  assert.ok((await res.json()).error.details.issues.some((i: any) => i.field === "address"));
  assert.equal(api.calls.length, 0);
});
