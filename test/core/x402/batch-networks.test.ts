import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { createPublicClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { startAnvil } from "../../../core/x402/devnet/anvil.ts";
import { escrowProbe } from "../../../core/x402/probes.ts";
import {
  chainReader,
  startDevnet,
  startEvmChain,
  startPaidService,
  type Devnet,
  type EvmChain,
} from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";

/** Vouchers on two chains at once, the second's claims authorized by a key of its own (not its payee's). */
let first: Devnet;
let second: EvmChain;
let service: Awaited<ReturnType<typeof startPaidService>>;
const authorizerKey = generatePrivateKey();
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const PRICE = 1000n;

before(async () => {
  [first, second] = await Promise.all([startDevnet(), startEvmChain()]);
  service = await startPaidService(first, {
    plugins: [probePlugin],
    chains: [second],
    batch: { authorizers: { [second.network]: authorizerKey } },
  });
});
after(async () => {
  await service?.close();
  await Promise.all([first?.stop(), second?.stop()]);
});

/** A payer holding money on one chain only, paying that chain's voucher option with the real client. */
function payerOn(chain: Devnet | EvmChain) {
  const account = privateKeyToAccount(chain.accounts.payer.privateKey);
  const reader = createPublicClient({ chain: devnetChain(chain.rpcUrl, chain.chainId), transport: http(chain.rpcUrl) });
  const scheme = new BatchClient(toClientEvmSigner(account, reader), { depositStrategy: () => "100000" });
  const client = new x402Client().register(chain.network, scheme).setSpendControls(false);
  client.registerPolicy((_v, accepts) =>
    accepts.filter((a) => a.scheme === "batch-settlement" && a.network === chain.network),
  );
  return { client, fetch: wrapFetchWithPayment(service.fetch, client) };
}

async function voucherTerms(): Promise<PaymentRequirements[]> {
  const res = await service.fetch(url("/v1/probe"));
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  return required.accepts.filter((a: PaymentRequirements) => a.scheme === "batch-settlement");
}

test("batch-settlement on two networks: each is offered with its own receiver authorizer", async () => {
  const terms = await voucherTerms();
  assert.deepEqual(
    terms.map((t) => [t.network, (t.extra as { receiverAuthorizer: string }).receiverAuthorizer]),
    [
      [first.network, first.accounts.payTo.address],
      [second.network, privateKeyToAccount(authorizerKey).address],
    ],
  );
});

test("batch-settlement on two networks: calls paid on each chain are claimed on that chain, to the unit, by its own authorizer", async () => {
  const [one, two] = [chainReader(first), chainReader(second)];
  const payTo = first.accounts.payTo.address;
  const before = [await one.balance(payTo), await two.balance(second.accounts.payTo.address)];
  const runs = handlerRuns.count;
  const onFirst = payerOn(first);
  const onSecond = payerOn(second);
  for (let i = 0; i < 20; i++) assert.equal((await onFirst.fetch(url("/v1/probe"))).status, 200);
  for (let i = 0; i < 30; i++) assert.equal((await onSecond.fetch(url("/v1/probe"))).status, 200);
  assert.equal(handlerRuns.count - runs, 50);

  // Each network keeps its own channels: its manager claims all it lists, on its own chain.
  const [firstChannels, secondChannels] = await Promise.all(
    [first, second].map((c) => service.batches!.get(c.network)!.scheme.getStorage().list()),
  );
  assert.deepEqual(
    [firstChannels, secondChannels].map((list) => list.map((c) => c.channelConfig.receiverAuthorizer)),
    [[first.accounts.payTo.address], [privateKeyToAccount(authorizerKey).address]],
  );

  for (const chain of [first, second]) {
    const { claims, settle } = await service.batches!.get(chain.network)!.manager.claimAndSettle();
    assert.equal(claims.length, 1);
    assert.ok(settle);
  }
  assert.equal((await one.balance(payTo)) - before[0], 20n * PRICE);
  assert.equal((await two.balance(second.accounts.payTo.address)) - before[1], 30n * PRICE);
});

test("batch-settlement on two networks: a voucher of one chain's channel presented under the other chain's terms grants nothing", async () => {
  const payer = payerOn(first);
  assert.equal((await payer.fetch(url("/v1/probe"))).status, 200);
  const res = await service.fetch(url("/v1/probe"));
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  const voucher: PaymentPayload = await payer.client.createPaymentPayload(required);
  const [, secondTerms] = await voucherTerms();
  const runs = handlerRuns.count;
  const moved = await service.fetch(url("/v1/probe"), {
    headers: { "payment-signature": encodeHeader({ ...voucher, accepted: secondTerms }) },
  });
  assert.equal(moved.status, 402);
  assert.equal(handlerRuns.count, runs);
});

test("batch-settlement readiness: the probe finds the escrow on each chain that takes vouchers, and names its absence elsewhere", async () => {
  for (const chain of [first, second]) await escrowProbe(chain.rpcUrl)(AbortSignal.timeout(30_000));
  const bare = await startAnvil({ chainId: 4242 });
  try {
    await assert.rejects(escrowProbe(bare.rpcUrl)(AbortSignal.timeout(30_000)), /no batch-settlement escrow at 0x4020/);
  } finally {
    await bare.stop();
  }
});
