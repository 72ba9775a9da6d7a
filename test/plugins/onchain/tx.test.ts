import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeFunctionData, parseUnits, type Hex } from "viem";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { startScene } from "./_devnet.ts";
import { dataOf } from "../../helpers/expect.ts";
import decodeCalldata from "../../../plugins/onchain/decode-calldata.ts";
import simulateTx from "../../../plugins/onchain/simulate-tx.ts";
import txEndpoint from "../../../plugins/onchain/tx.ts";

const scene = await startScene(["base-sepolia"]);
const chain = "base-sepolia";
const serviceWith = (url: string) =>
  startTestService({ plugins: ["onchain"], env: { ...scene.env, UPSTREAM_SOURCIFY_4BYTE_URL: url } });
const lookup = (query: string, result: unknown, status = 200): Fixture => ({
  source:
    "https://github.com/argotorg/sourcify/tree/master/services/4byte (OpenChain-compatible GET /signature-database/v1/lookup: {ok, result: {function: {selector: [{name, filtered}]}, event: {}}})",
  request: { method: "GET", path: `/lookup?filter=true&${query}` },
  response: { status, body: status === 200 ? { ok: true, result } : result },
});
const transferSig = lookup("function=0xa9059cbb", {
  event: {},
  function: { "0xa9059cbb": [{ name: "transfer(address,uint256)", filtered: false }] },
});
const transferData = (to: string, amount: bigint) =>
  encodeFunctionData({ abi: scene.tokenAbi, functionName: "transfer", args: [to, amount] });

test("tx: a token transfer, decoded with its method, transfer and event", async (t) => {
  const api = await serveFixtures(t, [transferSig]);
  const out = await (await serviceWith(api.url)).call(txEndpoint, { hash: scene.tx.transfer, chain });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.status, "success");
  assert.equal(data.block, Number(scene.blocks.transfer));
  assert.match(data.timestamp!, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual([data.from, data.to, data.value, data.contractCreated], [scene.alice, scene.token, "0", null]);
  assert.ok(Number(data.feeNative) > 0);
  assert.deepEqual(data.method, {
    selector: "0xa9059cbb",
    signature: "transfer(address,uint256)",
    args: [
      { name: null, type: "address", value: scene.bob },
      { name: null, type: "uint256", value: "250000000000000000000" },
    ],
  });
  assert.deepEqual(data.transfers, [
    {
      standard: "erc20",
      token: scene.token,
      from: scene.alice,
      to: scene.bob,
      value: "250000000000000000000",
      tokenId: null,
    },
  ]);
  assert.equal(data.events[0].signature, "Transfer(address,address,uint256)");
});

test("tx: a contract creation names the contract and looks nothing up", async (t) => {
  const api = await serveFixtures(t, []);
  const data = (
    (await (await serviceWith(api.url)).call(txEndpoint, { hash: scene.tx.deployToken, chain })).body as any
  ).data;
  assert.deepEqual([data.to, data.contractCreated, data.method], [null, scene.token, null]);
  assert.equal(data.transfers[0].from, "0x0000000000000000000000000000000000000000");
  assert.equal(api.calls.length, 0);
});

test("tx: an unknown hash is a 404; a failing signature database a 502", async (t) => {
  const api = await serveFixtures(t, [lookup("function=0xa9059cbb", "bad gateway", 502)], { reuse: true });
  const service = await serviceWith(api.url);
  assert.equal((await service.call(txEndpoint, { hash: `0x${"ab".repeat(32)}`, chain })).status, 404);
  const failed = await service.call(txEndpoint, { hash: scene.tx.transfer, chain });
  assert.equal(failed.status, 502);
});

test("simulate-tx: a transfer that would succeed, with its gas and transfer", async (t) => {
  const api = await serveFixtures(t, []);
  const out = await (await serviceWith(api.url)).call(simulateTx, {
    chain,
    from: scene.alice,
    to: scene.token,
    data: transferData(scene.carol, 10n),
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.success, true);
  assert.ok(Number(data.gasUsed) > 21000);
  assert.equal(data.returnData, `0x${"0".repeat(63)}1`);
  assert.equal(data.revert, null);
  assert.deepEqual(data.transfers, [
    { standard: "erc20", token: scene.token, from: scene.alice, to: scene.carol, value: "10", tokenId: null },
  ]);
  assert.equal(api.calls.length, 0);
});

test("simulate-tx: a custom error is named through the signature database", async (t) => {
  const api = await serveFixtures(t, [
    lookup("function=0xcf479181", {
      event: {},
      function: { "0xcf479181": [{ name: "InsufficientBalance(uint256,uint256)", filtered: false }] },
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(simulateTx, {
    chain,
    from: scene.fresh,
    to: scene.token,
    data: transferData(scene.bob, 5n),
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.success, false);
  assert.deepEqual(data.revert, {
    selector: "0xcf479181",
    signature: "InsufficientBalance(uint256,uint256)",
    reason: null,
    args: [
      { name: null, type: "uint256", value: "0" },
      { name: null, type: "uint256", value: "5" },
    ],
  });
});

test("simulate-tx: fields in the query string of a POST, and Error(string) decoded locally", async (t) => {
  const api = await serveFixtures(t, []);
  const data = encodeFunctionData({
    abi: scene.tokenAbi,
    functionName: "transferFrom",
    args: [scene.alice, scene.dave, parseUnits("1", 18)],
  });
  const query = new URLSearchParams({ chain, from: scene.dave, to: scene.token, data });
  const res = await (await serviceWith(api.url)).request(`/v1/simulate-tx?${query}`, { method: "POST" });
  assert.equal(res.status, 402, "a valid simulation asks for payment, so the query fields passed validation");
  const out = await (await serviceWith(api.url)).call(simulateTx, { chain, from: scene.dave, to: scene.token, data });
  assert.deepEqual(dataOf(out).revert, {
    selector: "0x08c379a0",
    signature: "Error(string)",
    reason: "allowance too low",
    args: [{ name: null, type: "string", value: "allowance too low" }],
  });
});

test("simulate-tx: bad fields are a 400 whether in the body or the query", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  const body = await service.request("/v1/simulate-tx", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ to: "0x12", chain }),
  });
  assert.equal(body.status, 400);
  assert.ok((await body.json()).error.details.issues.some((i: any) => i.field === "to"));
  const query = await service.request(`/v1/simulate-tx?to=${scene.token}&chain=${chain}&value=-1`, { method: "POST" });
  assert.equal(query.status, 400);
  assert.ok((await query.json()).error.details.issues.some((i: any) => i.field === "value"));
  assert.equal(api.calls.length, 0);
});

test("decode-calldata: every signature known for the selector that decodes exactly", async (t) => {
  const api = await serveFixtures(t, [transferSig]);
  const data = transferData(scene.bob, 7n);
  const out = await (await serviceWith(api.url)).call(decodeCalldata, { data });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    selector: "0xa9059cbb",
    signatures: ["transfer(address,uint256)"],
    decoded: [
      {
        signature: "transfer(address,uint256)",
        args: [
          { name: null, type: "address", value: scene.bob },
          { name: null, type: "uint256", value: "7" },
        ],
      },
    ],
  });
});

test("decode-calldata: with a signature nothing is looked up; a wrong one decodes nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  const data = transferData(scene.bob, 7n);
  const named = (
    (await service.call(decodeCalldata, { data, signature: "transfer(address to, uint256 amount)" })).body as any
  ).data;
  assert.deepEqual(
    named.decoded[0].args.map((a: any) => a.name),
    ["to", "amount"],
  );
  const wrong = ((await service.call(decodeCalldata, { data, signature: "approve(address,uint256)" })).body as any)
    .data;
  assert.deepEqual(wrong.decoded, []);
  assert.equal(api.calls.length, 0);
});

test("decode-calldata: bad data is a 400; a failing database a 502", async (t) => {
  const api = await serveFixtures(t, [lookup("function=0x095ea7b3", "down", 500)], { reuse: true });
  const service = await serviceWith(api.url);
  for (const data of ["0xa9059c", "a9059cbb", "0xa9059cbbz0"]) {
    assert.equal((await service.request(`/v1/decode-calldata?data=${data}`)).status, 400, data);
  }
  assert.equal(api.calls.length, 0);
  assert.equal((await service.call(decodeCalldata, { data: "0x095ea7b3" as Hex })).status, 502);
});
