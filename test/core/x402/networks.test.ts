import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment as wrapV1, decodeXPaymentResponse } from "x402-fetch";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createWalletClient, http, parseAbi } from "viem";
import { privateKeyToAccount, type LocalAccount } from "viem/accounts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import {
  chainReader,
  freshAccount,
  startDevnet,
  startEvmChain,
  startPaidService,
  type Devnet,
  type EvmChain,
} from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { challengeOf, signAuthorization, toHeader } from "../../helpers/sign.ts";

/** One route, two EVM chains offered at once; each payment settles, is claimed and reconciled on its own chain. */
let first: Devnet;
let second: EvmChain;
let service: Awaited<ReturnType<typeof startPaidService>>;
let settleTimesOut = false;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const flaky = (real: Facilitator): Facilitator => ({
  verify: (payload, requirements) => real.verify(payload, requirements),
  async settle(payload, requirements) {
    const settled = await real.settle(payload, requirements);
    if (settleTimesOut)
      throw Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });
    return settled;
  },
});

before(async () => {
  [first, second] = await Promise.all([startDevnet(), startEvmChain()]);
  service = await startPaidService(first, { plugins: [probePlugin], chains: [second], facilitator: flaky });
});
after(async () => {
  await service?.close();
  await Promise.all([first?.stop(), second?.stop()]);
});

/** A fresh wallet holding `amount` of one chain's test USDC and nothing anywhere else. */
async function holderOn(chain: Devnet | EvmChain, amount = 10_000n) {
  const account = freshAccount();
  const from = createWalletClient({
    chain: devnetChain(chain.rpcUrl, chain.chainId),
    transport: http(chain.rpcUrl),
    account: privateKeyToAccount(chain.accounts.others[0].privateKey),
  });
  const hash = await from.writeContract({
    address: chain.usdc.address,
    abi: parseAbi(["function transfer(address to, uint256 value) returns (bool)"]),
    functionName: "transfer",
    args: [account.address, amount],
  });
  await chainReader(chain).client.waitForTransactionReceipt({ hash });
  return account;
}

/** @x402/fetch as a wallet set up for one network: it signs only what it registered. */
function v2Fetch(account: LocalAccount, network: string) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account, networks: [network as `${string}:${string}`] });
  client.setSpendControls(false);
  return wrapFetchWithPayment(service.fetch, client);
}

test("networks: every 402 offers both chains in all three forms, v1 under the networks' v1 names", async () => {
  const res = await service.fetch(url("/v1/probe?echo=hi"));
  assert.equal(res.status, 402);
  const v2 = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
  assert.deepEqual(
    v2.accepts.map((a: { network: string; asset: string }) => [a.network, a.asset]),
    [
      [first.network, first.usdc.address],
      [second.network, second.usdc.address],
    ],
  );
  const body = await res.json();
  assert.deepEqual(
    body.accepts.map((a: { network: string }) => a.network),
    ["base-sepolia", "polygon-amoy"],
  );
  assert.deepEqual(
    JSON.parse(res.headers.get("x-payment-requirements")!).accepts.map((a: { network: string }) => a.network),
    ["base-sepolia", "polygon-amoy"],
  );
});

test("networks: a client whose money is only on the second chain gets its answer from the same route; the price moves there only", async () => {
  const account = await holderOn(second);
  const [onSecond, onFirst] = [chainReader(second), chainReader(first)];
  const [payToSecond, payToFirst] = await Promise.all([
    onSecond.balance(second.accounts.payTo.address),
    onFirst.balance(first.accounts.payTo.address),
  ]);
  const res = await v2Fetch(account, second.network)(url("/v1/probe?echo=second"));
  assert.equal(res.status, 200);
  assert.equal((await res.json()).data.echo, "second");
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  assert.deepEqual([receipt.success, receipt.network, receipt.payer], [true, second.network, account.address]);
  assert.equal((await onSecond.balance(second.accounts.payTo.address)) - payToSecond, 1000n);
  assert.equal(await onSecond.balance(account.address), 9000n);
  assert.equal(await onFirst.balance(first.accounts.payTo.address), payToFirst, "nothing moved on the first chain");
});

test("networks: x402-fetch 1.x pays on the second chain by its v1 name; the receipt names polygon-amoy", async () => {
  const account = await holderOn(second);
  const pickSecond = (accepts: any[]) => accepts.find((a) => a.network === "polygon-amoy");
  const res = await wrapV1(
    service.fetch,
    account as any,
    undefined,
    pickSecond as any,
  )(url("/v1/probe?echo=v1-second"));
  assert.equal(res.status, 200);
  const receipt = decodeXPaymentResponse(res.headers.get("x-payment-response")!);
  assert.deepEqual([receipt.success, receipt.network], [true, "polygon-amoy"]);
  assert.equal(await chainReader(second).balance(account.address), 9000n);
});

test("networks: an authorization signed for one chain's token and sent as the other chain's is refused before anything runs", async () => {
  const account = await holderOn(second);
  const required = await challengeOf(service.fetch, url("/v1/probe?echo=cross"));
  const [onFirst, onSecond] = required.accepts;
  // Signed under the second chain's domain, presented as a payment on the first chain (its asset and network).
  const payload = await signAuthorization(account, onSecond);
  const runs = handlerRuns.count;
  const res = await service.fetch(url("/v1/probe?echo=cross"), {
    headers: {
      "payment-signature": toHeader({ x402Version: 2, resource: required.resource, accepted: onFirst, payload }),
    },
  });
  assert.equal(res.status, 402);
  assert.equal((await res.json()).reason, "invalid_exact_evm_signature");
  assert.equal(handlerRuns.count, runs);
});

test("networks: one payment is one grant on its chain; the same nonce on the other chain is another payment", async () => {
  const account = await holderOn(second);
  const from = createWalletClient({
    chain: devnetChain(first.rpcUrl, first.chainId),
    transport: http(first.rpcUrl),
    account: privateKeyToAccount(first.accounts.others[0].privateKey),
  });
  await chainReader(first).client.waitForTransactionReceipt({
    hash: await from.writeContract({
      address: first.usdc.address,
      abi: parseAbi(["function transfer(address to, uint256 value) returns (bool)"]),
      functionName: "transfer",
      args: [account.address, 10_000n],
    }),
  });
  const required = await challengeOf(service.fetch, url("/v1/probe?echo=twice"));
  const onSecond = await signAuthorization(account, required.accepts[1]);
  const header = toHeader({
    x402Version: 2,
    resource: required.resource,
    accepted: required.accepts[1],
    payload: onSecond,
  });
  const answers = await Promise.all(
    Array.from({ length: 5 }, () =>
      service.fetch(url("/v1/probe?echo=twice"), { headers: { "payment-signature": header } }),
    ),
  );
  assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409, 409, 409, 409]);
  assert.equal(await chainReader(second).balance(account.address), 9000n);
  // The same payer and nonce, signed for the first chain: its own claim, its own transfer.
  const onFirst = await signAuthorization(account, required.accepts[0], { nonce: onSecond.authorization.nonce });
  const res = await service.fetch(url("/v1/probe?echo=twice"), {
    headers: {
      "payment-signature": toHeader({
        x402Version: 2,
        resource: required.resource,
        accepted: required.accepts[0],
        payload: onFirst,
      }),
    },
  });
  assert.equal(res.status, 200);
  assert.equal(await chainReader(first).balance(account.address), 9000n);
});

test("networks: a settlement that times out on the second chain is reconciled against that chain and credited once", async () => {
  const account = await holderOn(second);
  settleTimesOut = true;
  let res: Response;
  try {
    res = await v2Fetch(account, second.network)(url("/v1/probe?echo=pending"));
  } finally {
    settleTimesOut = false;
  }
  assert.equal(res.status, 402);
  const body = await res.json();
  assert.equal(body.reason, "settlement_pending");
  assert.equal(await chainReader(second).balance(account.address), 9000n, "the transfer landed on the second chain");
  await service.reconciler.reconcileOnce();
  await service.reconciler.reconcileOnce();
  assert.equal(await service.credits.balance(body.creditCode), 1000n);
});
