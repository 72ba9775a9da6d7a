import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { PERMIT2_ADDRESS } from "@x402/evm";
import { parseAbi } from "viem";
import type { LocalAccount } from "viem/accounts";
import { defaultLogWindow } from "../../../core/x402/scheme.ts";
import { exactPermit2FateOf } from "../../../core/x402/schemes/exact-permit2/fate.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { permit2Token } from "../../helpers/permit2.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let token: ReturnType<typeof permit2Token>;
before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, { plugins: [probePlugin], permit2: true });
  token = permit2Token(devnet, devnet.dai.address);
});
after(async () => {
  await devnet?.stop();
});

const payingFetch = (account: LocalAccount) => wrapFetchWithPayment(service.fetch, token.client(account));
const price = 10n ** 15n; // $0.001 in an 18-decimal token

test("exact-permit2: the route's 402 offers the token without EIP-3009 with extra.assetTransferMethod permit2, to v2 clients only", async () => {
  const res = await service.fetch(`${service.baseUrl}/v1/probe?echo=offer`);
  assert.equal(res.status, 402);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  const offer = required.accepts.find((a: { asset: string }) => a.asset === devnet.dai.address);
  assert.deepEqual(
    [offer.scheme, offer.amount, offer.extra],
    ["exact", String(price), { assetTransferMethod: "permit2" }],
  );
  const v1 = (await res.json()).accepts.map((a: { asset: string }) => a.asset);
  assert.deepEqual(v1, [devnet.usdc.address]);
});

test("exact-permit2: @x402/fetch's own exact client pays with the 18-decimal token through Permit2: one run, one Transfer of exactly the price to payTo", async () => {
  const account = await token.wallet(10n * price, true);
  const before = { runs: handlerRuns.count, balance: await token.balanceOf(account.address) };
  const res = await payingFetch(account)(`${service.baseUrl}/v1/probe?echo=paid`);
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual((await res.json()).data, { echo: "paid", payer: account.address });
  assert.equal(handlerRuns.count - before.runs, 1);
  assert.deepEqual(await token.transfersFrom(account.address), [price]);
  assert.equal(before.balance - (await token.balanceOf(account.address)), price);
});

test("exact-permit2: a wallet that never approved Permit2 gets a 402 naming the approve transaction, nothing runs or moves; once it sends it, the same signed payment pays", async () => {
  const account = await token.wallet(10n * price, false);
  const client = token.client(account);
  const challenge = await service.fetch(`${service.baseUrl}/v1/probe?echo=unapproved`);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString());
  const payload = await client.createPaymentPayload(required);
  const header = Buffer.from(JSON.stringify(payload)).toString("base64");
  const send = () =>
    service.fetch(`${service.baseUrl}/v1/probe?echo=unapproved`, { headers: { "payment-signature": header } });
  const before = handlerRuns.count;
  const refused = await send();
  assert.equal(refused.status, 402);
  const body = await refused.json();
  assert.equal(body.reason, "permit2_allowance_required");
  assert.match(body.error, /approved Permit2/);
  assert.equal(body.approve.to.toLowerCase(), devnet.dai.address.toLowerCase());
  assert.equal(body.approve.chainId, devnet.chainId);
  assert.equal(body.approve.data.slice(0, 10), "0x095ea7b3", "approve(address,uint256)");
  assert.ok(body.approve.data.toLowerCase().includes(PERMIT2_ADDRESS.slice(2).toLowerCase()));
  assert.deepEqual([handlerRuns.count - before, (await token.transfersFrom(account.address)).length], [0, 0]);

  // The approve the 402 named, sent as given.
  const { reader } = token;
  const own = token.walletOf(account);
  await reader.waitForTransactionReceipt({
    hash: await own.sendTransaction({ to: body.approve.to, data: body.approve.data }),
  });
  const paid = await send();
  assert.equal(paid.status, 200, await paid.clone().text());
  assert.deepEqual([handlerRuns.count - before, await token.transfersFrom(account.address)], [1, [price]]);
});

test("exact-permit2: ten copies of one payment on one instance: one run, one Transfer, nine 409s; its nonce, spent through the exact proxy, cannot pay again", async () => {
  const account = await token.wallet(10n * price, true);
  const client = token.client(account);
  const challenge = await service.fetch(`${service.baseUrl}/v1/probe?echo=copies`);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString());
  const header = Buffer.from(JSON.stringify(await client.createPaymentPayload(required))).toString("base64");
  const before = handlerRuns.count;
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      service.fetch(`${service.baseUrl}/v1/probe?echo=copies`, { headers: { "payment-signature": header } }),
    ),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(9).fill(409)]);
  assert.deepEqual([handlerRuns.count - before, await token.transfersFrom(account.address)], [1, [price]]);
});

test("exact-permit2: reconciliation reads a lost settlement's fate off the chain: moved (through the exact proxy), unused, or spent without a settlement (a nonce the payer invalidated)", async () => {
  const account = await token.wallet(10n * price, true);
  const client = token.client(account);
  const challenge = await service.fetch(`${service.baseUrl}/v1/probe?echo=fate`);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString());
  const payload = await client.createPaymentPayload(required);
  const header = Buffer.from(JSON.stringify(payload)).toString("base64");
  const paid = await service.fetch(`${service.baseUrl}/v1/probe?echo=fate`, {
    headers: { "payment-signature": header },
  });
  assert.equal(paid.status, 200);
  const { reader } = token;
  const record = (nonce: bigint) => ({
    claimKey: "x402:claim:test",
    network: devnet.network,
    asset: devnet.dai.address,
    from: account.address,
    nonce: String(nonce),
    amount: String(price),
    payTo: devnet.accounts.payTo.address,
    validBefore: "0",
    creditCode: "cr_test",
    at: Date.now() - 60_000,
    scheme: "exact-permit2",
  });
  const fate = async (nonce: bigint) =>
    exactPermit2FateOf(reader as never, record(nonce), await reader.getBlockNumber({ cacheTime: 0 }), defaultLogWindow);
  const nonce = BigInt((payload.payload as { permit2Authorization: { nonce: string } }).permit2Authorization.nonce);
  const moved = await fate(nonce);
  assert.equal(moved.state, "moved");
  assert.equal(
    (moved as { transaction: string }).transaction,
    decodePaymentResponseHeader(paid.headers.get("payment-response")!).transaction,
  );
  assert.deepEqual(await fate(nonce + 1n), { state: "unused" });
  // The payer burns a nonce of its own in Permit2: spent, and no settlement moved anything.
  const own = token.walletOf(account);
  const burnt = nonce ^ 1n;
  const invalidated = await reader.waitForTransactionReceipt({
    hash: await own.writeContract({
      address: PERMIT2_ADDRESS,
      abi: parseAbi(["function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)"]),
      functionName: "invalidateUnorderedNonces",
      args: [burnt >> 8n, 1n << (burnt & 0xffn)],
    }),
  });
  assert.equal(invalidated.status, "success");
  assert.deepEqual(await fate(burnt), { state: "unseen", why: "no-event" });
});

test("exact-permit2: a payment in the other transfer method is refused at binding: a Permit2 permit for the EIP-3009 token's offer, an EIP-3009 authorization for the Permit2 token's: 402 invalid_payload, 0 runs, 0 transfers", async () => {
  const account = await token.wallet(10n * price, true);
  const challenge = await service.fetch(`${service.baseUrl}/v1/probe?echo=crossed`);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString());
  const offerOf = (asset: string) => required.accepts.find((a: { asset: string }) => a.asset === asset);
  const signedFor = async (asset: string) => {
    const client = new x402Client().register(devnet.network, new ExactEvmScheme(account)).setSpendControls(false);
    client.registerPolicy((_v, accepts) => accepts.filter((a) => a.asset === asset));
    return client.createPaymentPayload(required);
  };
  const permit = await signedFor(devnet.dai.address);
  const authorization = await signedFor(devnet.usdc.address);
  const crossed = [
    { ...permit, accepted: offerOf(devnet.usdc.address) },
    { ...authorization, accepted: offerOf(devnet.dai.address) },
  ];
  const before = handlerRuns.count;
  for (const payload of crossed) {
    const res = await service.fetch(`${service.baseUrl}/v1/probe?echo=crossed`, {
      headers: { "payment-signature": Buffer.from(JSON.stringify(payload)).toString("base64") },
    });
    assert.equal(res.status, 402);
    assert.equal((await res.json()).reason, "invalid_payload");
  }
  assert.deepEqual([handlerRuns.count - before, (await token.transfersFrom(account.address)).length], [0, 0]);
});
