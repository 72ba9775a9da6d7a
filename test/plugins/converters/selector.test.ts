import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import selectorEndpoint from "../../../plugins/converters/selector.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "a bare function signature",
    signature: "transfer(address,uint256)",
    kind: "function",
    canonical: "transfer(address,uint256)",
    selector: "0xa9059cbb",
  },
  {
    name: "a declaration with names, modifiers and returns",
    signature: "function balanceOf(address owner) external view returns (uint256)",
    kind: "function",
    canonical: "balanceOf(address)",
    selector: "0x70a08231",
  },
  {
    name: "uint is normalized to uint256",
    signature: "approve(address spender, uint amount)",
    kind: "function",
    canonical: "approve(address,uint256)",
    selector: "0x095ea7b3",
  },
  {
    name: "no parameters",
    signature: "totalSupply()",
    kind: "function",
    canonical: "totalSupply()",
    selector: "0x18160ddd",
  },
  {
    name: "tuples are expanded",
    signature: "function f((uint a, bytes b)[] items)",
    kind: "function",
    canonical: "f((uint256,bytes)[])",
    selector: "0x5319cf8a",
  },
  {
    name: "an event declaration",
    signature: "event Transfer(address indexed from, address indexed to, uint256 value)",
    kind: "event",
    canonical: "Transfer(address,address,uint256)",
    selector: "0xddf252ad",
  },
  {
    name: "indexed makes a bare signature an event",
    signature: "Approval(address indexed owner, address indexed spender, uint value);",
    kind: "event",
    canonical: "Approval(address,address,uint256)",
    selector: "0x8c5be1e5",
  },
  {
    name: "a custom error",
    signature: "error InsufficientBalance(uint256 available, uint256 required)",
    kind: "error",
    canonical: "InsufficientBalance(uint256,uint256)",
    selector: "0xcf479181",
  },
];
for (const c of cases) {
  test(`selector: ${c.name}`, async () => {
    const out = await service.call(selectorEndpoint, { signature: c.signature });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const data = dataOf(out);
    assert.equal(data.kind, c.kind);
    assert.equal(data.signature, c.canonical);
    assert.equal(data.selector, c.selector);
    assert.equal(data.topic.slice(0, 10), c.selector);
    assert.match(data.topic, /^0x[0-9a-f]{64}$/);
  });
}

test("selector: the Transfer event topic is the well-known one", async () => {
  const data = (
    (
      await service.call(selectorEndpoint, {
        signature: "event Transfer(address indexed from, address indexed to, uint256 value)",
      })
    ).body as any
  ).data;
  assert.equal(data.topic, "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
  assert.equal(data.readable, "Transfer(address from, address to, uint256 value)");
  assert.deepEqual(data.inputs, [
    { name: "from", type: "address", indexed: true },
    { name: "to", type: "address", indexed: true },
    { name: "value", type: "uint256", indexed: false },
  ]);
});

const refused = [
  { name: "an unclosed parameter list", signature: "transfer(address" },
  { name: "an unknown type", signature: "f(uint7)" },
  { name: "indexed in a function", signature: "function f(uint256 indexed x)" },
  { name: "no name", signature: "function (uint256)" },
];
for (const c of refused) {
  test(`selector: ${c.name} is a 400 on signature`, async () => {
    const out = await service.call(selectorEndpoint, { signature: c.signature });
    assert.equal(out.status, 400);
    assert.equal(issuesOf(out)[0].field, "signature");
  });
}

const bad = [
  { name: "missing signature", query: "" },
  { name: "a signature under 3 characters", query: "signature=f(" },
  { name: "a signature over 2000 characters", query: `signature=f(${"uint256,".repeat(250)})` },
];
for (const c of bad) {
  test(`selector: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/selector?${c.query}`);
    await expectFree400(res, "signature");
  });
}

test("selector: valid input without payment is a 402", async () => {
  const res = await service.request(`/v1/selector?signature=${encodeURIComponent("transfer(address,uint256)")}`);
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
