import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeFunctionData, getAddress, hashTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { attention } from "../../../plugins/bet/_environments.ts";
import { betTypedData } from "../../../plugins/bet/_typed-data.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import { affiliate, betService, bettorKey, calculation, conditionId, dir, polygonRead, relayer } from "./_bet.ts";
import betSubmit from "../../../plugins/bet/submit.ts";

const bettor = privateKeyToAccount(bettorKey);
const core = "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7";
const raw = {
  conditionId,
  outcomeId: "29",
  amountRaw: "10500000",
  minOdds: "1760000000000",
  nonce: "1778500000000123",
  relayerFeeAmount: "23841",
};

async function signed(values: Record<string, unknown> = {}) {
  const order = { ...raw, expiresAt: Math.floor(Date.now() / 1000) + 300, ...values };
  const signature = await bettor.signTypedData(
    betTypedData({ chainId: 137, core, affiliate, attention }, order as any) as any,
  );
  return { bettor: bettor.address, signature, ...order };
}

/** condition-active with outcome 29 changed as `change` says, the rest of the condition still Active. */
async function conditionWith(change: Record<string, unknown>, note: string): Promise<Fixture> {
  const fixture = await loadFixture("azuro-api.condition-active", dir);
  const body = structuredClone(fixture.response.body) as any;
  Object.assign(body.conditions[0].outcomes[0], change);
  return { ...fixture, source: `${fixture.source}; ${note}`, response: { ...fixture.response, body } };
}

test("bet/submit: without relayerFeeAmount (it is signed) is a free 400 naming it, nothing called", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await betService(api.url);
  const { relayerFeeAmount: _, ...input } = await signed();
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
  await expectFree400(await service.request(`/v1/bet/submit?${query}`), "relayerFeeAmount");
  assert.equal(api.calls.length, 0);
});

test("bet/submit: leading zeros in amountRaw and nonce reach the relayer as the numbers the bettor signed", async (t) => {
  const orderId = `${bettor.address.toLowerCase()}_1778500000000123`;
  const api = await serveFixtures(
    t,
    ["azuro-api.condition-active", calculation(bettor.address, 250.5), relayer(200, { id: orderId, state: "Created" })],
    { dir },
  );
  const input = { ...(await signed()), amountRaw: "00010500000", nonce: "01778500000000123" };
  const out = await (await betService(api.url)).call(betSubmit, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const posted = JSON.parse(api.calls.find((c) => c.path.endsWith("/bet/orders/ordinar"))!.body);
  assert.equal(posted.clientBetData.bet.amount, "10500000");
  assert.equal(posted.clientBetData.bet.nonce, "1778500000000123");
});

test("bet/submit: an outcome stopped or hidden on its own is a 409 while its condition is Active, nothing forwarded", async (t) => {
  for (const [change, state] of [
    [{ state: "Stopped" }, "Stopped"],
    [{ hidden: true }, "hidden"],
  ] as const) {
    const api = await serveFixtures(t, [await conditionWith(change, `outcome 29 ${state} (outcome-level state)`)], {
      dir,
    });
    const out = await (await betService(api.url)).call(betSubmit, await signed());
    assert.equal(out.status, 409, state);
    assert.equal(errorOf(out).code, "market_not_live");
    assert.equal(errorOf(out).details?.state, state);
    assert.equal(api.calls.length, 1, "only the condition was read");
  }
});

test("bet/submit: a payout over the protocol's maxPayout at the current odds is a 422, nothing forwarded", async (t) => {
  // 10.5 at 1.81 pays 19.005, over a maxPayout of 19.
  const api = await serveFixtures(t, ["azuro-api.condition-active", calculation(bettor.address, 250.5, "19")], {
    dir,
  });
  const out = await (await betService(api.url)).call(betSubmit, await signed());
  assert.equal(out.status, 422);
  assert.equal(errorOf(out).code, "payout_over_limit");
  assert.equal(errorOf(out).details?.potentialPayout, 19.005);
  assert.ok(!api.calls.some((c) => c.path.endsWith("/bet/orders/ordinar")));
});

const erc1271 = [
  {
    type: "function",
    name: "isValidSignature",
    stateMutability: "view",
    inputs: [
      { name: "hash", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [{ name: "magicValue", type: "bytes4" }],
  },
] as const;

test("bet/submit: a contract wallet (ERC-1271) is accepted when its isValidSignature says yes over the order's digest, refused when it says no", async (t) => {
  const wallet = getAddress("0x5afe00000000000000000000000000000000c0de");
  const order = { ...raw, expiresAt: Math.floor(Date.now() / 1000) + 300 };
  const typed = betTypedData({ chainId: 137, core, affiliate, attention }, order as any) as any;
  const signature = await bettor.signTypedData(typed);
  const asked = encodeFunctionData({
    abi: erc1271,
    functionName: "isValidSignature",
    args: [hashTypedData(typed), signature],
  });
  const code = polygonRead("eth_getCode", [wallet, "latest"], "0x6080604052", "a deployed contract wallet");
  const answer = (word: string) =>
    polygonRead(
      "eth_call",
      [{ to: wallet, data: asked }, "latest"],
      word.padEnd(66, "0"),
      "https://eips.ethereum.org/EIPS/eip-1271 (isValidSignature returns 0x1626ba7e when valid)",
    );
  const orderId = `${wallet.toLowerCase()}_1778500000000123`;
  const yes = await serveFixtures(
    t,
    [
      code,
      answer("0x1626ba7e"),
      "azuro-api.condition-active",
      calculation(wallet, 250.5),
      relayer(200, { id: orderId, state: "Created" }),
    ],
    { dir },
  );
  const accepted = await (await betService(yes.url)).call(betSubmit, { bettor: wallet, signature, ...order });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.equal(dataOf(accepted).bettor, wallet);
  const posted = JSON.parse(yes.calls.find((c) => c.path.endsWith("/bet/orders/ordinar"))!.body);
  assert.equal(posted.bettor, wallet.toLowerCase());
  assert.equal(posted.bettorSignature, signature);

  const no = await serveFixtures(t, [code, answer("0xffffffff")], { dir });
  const refused = await (await betService(no.url)).call(betSubmit, { bettor: wallet, signature, ...order });
  assert.equal(refused.status, 400);
  assert.equal(errorOf(refused).code, "signature_mismatch");
  assert.deepEqual(
    no.calls.map((c) => JSON.parse(c.body).method),
    ["eth_getCode", "eth_call"],
    "nothing reached Azuro",
  );
});
