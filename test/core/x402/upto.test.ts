import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import * as v from "valibot";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { PERMIT2_ADDRESS, toClientEvmSigner, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from "@x402/evm";
import { UptoEvmScheme as UptoClient } from "@x402/evm/upto/client";
import { UptoEvmScheme as UptoServer } from "@x402/evm/upto/server";
import { createPublicClient, createWalletClient, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { devnetChain, testUsdcAbi } from "../../../core/x402/devnet/index.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { blockNow, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";

type Service = Awaited<ReturnType<typeof startPaidService>>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const batchPath = (outcomes: string[]) =>
  `/v1/batch?calls=${encodeURIComponent(JSON.stringify(outcomes.map((outcome) => ({ path: "/v1/probe", params: { outcome } }))))}`;

/** A pay-as-used route whose handler reports far more than its price: the settlement must stay at the price. */
const greedyRuns = { count: 0 };
const greedy = defineEndpoint({
  name: "probe-greedy",
  method: "GET",
  price: "$0.002",
  paysAsUsed: true,
  summary: "Reports using a thousand dollars",
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: (ctx) => {
    greedyRuns.count++;
    ctx.use(1_000_000_000n);
    return { ok: true };
  },
});
const greedyPlugin = definePlugin({ family: "probe-greedy", endpoints: [greedy] });

let devnet: Devnet;
let redis: RedisServer | undefined;
const stores: RedisStore[] = [];
let one: Service;
let two: Service;

before(async () => {
  devnet = await startDevnet();
  redis = redisMissing ? undefined : await startRedis();
  for (let i = 0; i < 2; i++) {
    const store = redis ? await createRedisStore(redis.url, pino({ level: "silent" })) : undefined;
    if (store) stores.push(store);
    const service = await startPaidService(devnet, { plugins: [probePlugin, greedyPlugin], store, upto: true });
    if (i === 0) one = service;
    else two = service;
  }
});
after(async () => {
  await one?.close();
  await two?.close();
  for (const store of stores) await store.close();
  await redis?.stop();
  await devnet?.stop();
});

const reader = () => createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
const balanceOf = (address: Address) =>
  reader().readContract({ address: devnet.usdc.address, abi: testUsdcAbi, functionName: "balanceOf", args: [address] });
const permit2Allowance = (owner: Address) =>
  reader().readContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "allowance",
    args: [owner, PERMIT2_ADDRESS],
  });

/** A payer with the real upto client (it reads its allowance and signs an EIP-2612 permit when it has none). */
function uptoPayer(index: number) {
  const account = privateKeyToAccount(devnet.accounts.others[index].privateKey);
  const client = new x402Client().register(devnet.network, new UptoClient(toClientEvmSigner(account, reader())));
  client.setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "upto"));
  return {
    address: account.address,
    pay: (service: Service) => wrapFetchWithPayment(service.fetch, client),
    /** Signs for the route's 402 without sending, as an attacker who means to replay the payment would. */
    async sign(service: Service, path: string): Promise<PaymentPayload> {
      return client.createPaymentPayload(await paymentRequired(service, path));
    },
  };
}

async function paymentRequired(service: Service, path: string): Promise<PaymentRequired> {
  const res = await service.fetch(url(path));
  assert.equal(res.status, 402);
  await res.body?.cancel();
  return JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
}

async function send(service: Service, path: string, payload: PaymentPayload) {
  const res = await service.fetch(url(path), { headers: { "payment-signature": encodeHeader(payload) } });
  const body = await res.json();
  return { status: res.status, body };
}

test("upto: a pay-as-used route's 402 offers upto beside exact, as @x402/evm's server scheme writes it; other routes do not", async () => {
  const required = await paymentRequired(one, batchPath(["ok"]));
  assert.deepEqual(
    required.accepts.map((a) => a.scheme),
    ["exact", "upto"],
  );
  const [exact, upto] = required.accepts;
  const base = { ...exact, scheme: "upto", extra: { name: devnet.usdc.name, version: devnet.usdc.version } };
  const written = await new UptoServer().enhancePaymentRequirements(
    base,
    {
      x402Version: 2,
      scheme: "upto",
      network: devnet.network,
      extra: { facilitatorAddress: devnet.accounts.relayer.address },
    },
    [],
  );
  assert.deepEqual(upto, written);
  assert.equal(upto.amount, "50000");
  assert.ok(required.extensions?.eip2612GasSponsoring);
  const probe = await paymentRequired(one, "/v1/probe");
  assert.deepEqual(
    probe.accepts.map((a) => a.scheme),
    ["exact"],
  );
  assert.equal(probe.extensions?.eip2612GasSponsoring, undefined);
});

test("upto: the batch paid with @x402/fetch settles exactly the items that succeeded, in one transfer, and credits nothing", async () => {
  const payer = uptoPayer(0);
  assert.equal(await permit2Allowance(payer.address), 0n);
  const [before, payToBefore, fromBlock, runs] = [
    await balanceOf(payer.address),
    await balanceOf(devnet.accounts.payTo.address),
    await blockNow(devnet),
    handlerRuns.count,
  ];
  const res = await payer.pay(one)(url(batchPath(["ok", "ok", "bad", "ok"])));
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(body.data.succeeded, 3);
  assert.equal(body.data.credit, null);
  assert.equal(handlerRuns.count - runs, 4);
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  assert.equal(receipt.success, true);
  assert.equal((receipt as { amount?: string }).amount, "3000");
  assert.equal(before - (await balanceOf(payer.address)), 3000n);
  assert.equal((await balanceOf(devnet.accounts.payTo.address)) - payToBefore, 3000n);
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, payer.address), {
    count: 1,
    value: 3000n,
  });
  // The client's EIP-2612 permit approved Permit2 for the authorized 50,000; 3,000 of it was spent.
  assert.equal(await permit2Allowance(payer.address), 47_000n);
});

test("upto: ten concurrent calls with one signed permit on two instances: one grant, one transfer", {
  skip: redisMissing,
}, async () => {
  const payer = uptoPayer(1);
  const path = batchPath(["ok", "ok"]);
  const payload = await payer.sign(one, path);
  const [fromBlock, runs] = [await blockNow(devnet), handlerRuns.count];
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => send(i % 2 ? two : one, path, structuredClone(payload))),
  );
  const statuses = answers.map((a) => a.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(statuses.filter((s) => s === 409).length, 9, String(statuses));
  assert.equal(handlerRuns.count - runs, 2);
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, payer.address), {
    count: 1,
    value: 2000n,
  });

  // Replayed after its settlement, on either instance: refused, nothing runs, nothing moves.
  const replays = await Promise.all([send(one, path, payload), send(two, path, payload)]);
  assert.deepEqual(
    replays.map((r) => [r.status, r.body.error?.code]),
    [
      [409, "payment_already_used"],
      [409, "payment_already_used"],
    ],
  );
  assert.equal(handlerRuns.count - runs, 2);
  assert.equal((await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, payer.address)).count, 1);
});

test("upto: a failed call moves nothing, and its permit is spent: it grants nothing afterwards", async () => {
  const payer = uptoPayer(2);
  const failing = batchPath(["bad", "missing"]);
  const payload = await payer.sign(one, failing);
  const [before, fromBlock, runs] = [await balanceOf(payer.address), await blockNow(devnet), handlerRuns.count];
  const failed = await send(one, failing, payload);
  assert.equal(failed.status, 502);
  assert.equal(handlerRuns.count - runs, 2);
  // The same permit (same route, same quote) for a batch that would succeed.
  const reused = await send(two, batchPath(["ok", "ok"]), payload);
  assert.equal(reused.status, redisMissing ? 200 : 409);
  if (!redisMissing) {
    assert.equal(handlerRuns.count - runs, 2);
    assert.equal(await balanceOf(payer.address), before);
    assert.equal((await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, payer.address)).count, 0);
  }
});

test("upto: a handler reporting more than the price settles the price, never more", async () => {
  const payer = uptoPayer(3);
  const [before, runs] = [await balanceOf(payer.address), greedyRuns.count];
  const res = await payer.pay(one)(url("/v1/probe-greedy"));
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(greedyRuns.count - runs, 1);
  assert.equal(before - (await balanceOf(payer.address)), 2000n);
});

test("upto: a permit for more than the route's quote is refused before anything runs", async () => {
  const payer = uptoPayer(4);
  const path = batchPath(["ok"]);
  const required = await paymentRequired(one, path);
  const raised = {
    ...required,
    accepts: required.accepts.map((a) => (a.scheme === "upto" ? { ...a, amount: "5000000" } : a)),
  };
  const account = privateKeyToAccount(devnet.accounts.others[4].privateKey);
  const client = new x402Client().register(devnet.network, new UptoClient(toClientEvmSigner(account, reader())));
  client.setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "upto"));
  const payload = await client.createPaymentPayload(raised);
  const [before, runs] = [await balanceOf(payer.address), handlerRuns.count];
  const answer = await send(one, path, payload);
  assert.equal(answer.status, 402);
  assert.equal(answer.body.reason, "permit2_amount_mismatch");
  assert.equal(handlerRuns.count, runs);
  assert.equal(await balanceOf(payer.address), before);
});

const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** The same signature with s mirrored (n - s) and v flipped: ecrecover's math accepts it, the gate does not. */
function highS(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16) === 27 ? "1c" : "1b";
  return `${signature.slice(0, 66)}${(curveOrder - s).toString(16).padStart(64, "0")}${v}`;
}

test("upto: a permit in another payer's name, or its signature rewritten, is refused on both instances before anything runs", async () => {
  const victim = uptoPayer(0);
  const path = batchPath(["ok"]);
  const mallory = new x402Client().register(
    devnet.network,
    new UptoClient(toClientEvmSigner(privateKeyToAccount(generatePrivateKey()), reader())),
  );
  mallory.setSpendControls(false);
  mallory.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "upto"));
  const byMallory = await mallory.createPaymentPayload(await paymentRequired(one, path));
  const inner = byMallory.payload as { permit2Authorization: { from: string }; signature: string };
  const inVictimsName = {
    ...byMallory,
    payload: { ...inner, permit2Authorization: { ...inner.permit2Authorization, from: victim.address } },
  };
  const honest = await victim.sign(one, path);
  const honestInner = honest.payload as { signature: string };
  const rewritten = { ...honest, payload: { ...honestInner, signature: highS(honestInner.signature) } };
  const [before, runs] = [await balanceOf(victim.address), handlerRuns.count];
  const answers = [];
  for (const forged of [inVictimsName, rewritten] as PaymentPayload[])
    for (const service of [one, two]) answers.push(await send(service, path, forged));
  assert.deepEqual(
    answers.map((a) => [a.status, a.body.reason]),
    Array(4).fill([402, "invalid_permit2_signature"]),
  );
  assert.equal(handlerRuns.count, runs);
  assert.equal(await balanceOf(victim.address), before);
});

test("upto: the proxy on the devnet moves no more than permitted, and only for the facilitator the permit names", async () => {
  const payer = uptoPayer(5);
  const path = batchPath(["ok"]);
  const payload = await payer.sign(one, path);
  const { permit2Authorization: p, signature } = payload.payload as any;
  const permit = {
    permitted: { token: p.permitted.token, amount: BigInt(p.permitted.amount) },
    nonce: BigInt(p.nonce),
    deadline: BigInt(p.deadline),
  };
  const witness = { to: p.witness.to, facilitator: p.witness.facilitator, validAfter: BigInt(p.witness.validAfter) };
  const walletOf = (key: `0x${string}`) =>
    createWalletClient({
      account: privateKeyToAccount(key),
      chain: devnetChain(devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
  const simulate = (key: `0x${string}`, amount: bigint) =>
    reader()
      .simulateContract({
        account: walletOf(key).account,
        address: x402UptoPermit2ProxyAddress,
        abi: x402UptoPermit2ProxyABI,
        functionName: "settle",
        args: [permit, amount, p.from, witness, signature],
      })
      .then(
        () => "ok",
        (e: Error) => e.message,
      );
  // The payer has no Permit2 allowance yet: approve it as a wallet would, so only the proxy's own rules refuse.
  const approval = await walletOf(devnet.accounts.others[5].privateKey).writeContract({
    address: devnet.usdc.address,
    abi: testUsdcAbi,
    functionName: "approve",
    args: [PERMIT2_ADDRESS, 10n ** 12n],
  });
  await reader().waitForTransactionReceipt({ hash: approval });
  assert.match(
    await simulate(devnet.accounts.relayer.privateKey, permit.permitted.amount + 1n),
    /AmountExceedsPermitted/,
  );
  assert.match(await simulate(devnet.accounts.payTo.privateKey, 1000n), /UnauthorizedFacilitator/);
  assert.equal(await simulate(devnet.accounts.relayer.privateKey, permit.permitted.amount), "ok");
});

test("upto: a settlement whose outcome was lost is reconciled from Permit2: credited exactly what moved, once", async () => {
  let lands = true;
  const flaky = await startPaidService(devnet, {
    plugins: [probePlugin],
    upto: true,
    facilitator: (real) => ({
      verify: (payload, requirements) => real.verify(payload, requirements),
      async settle(payload, requirements) {
        if (lands) await real.settle(payload, requirements);
        throw new Error("settlement timed out");
      },
    }),
  });
  const payer = uptoPayer(6);
  const before = await balanceOf(payer.address);
  const path = batchPath(["ok", "bad", "ok"]);
  const landed = await send(flaky, path, await payer.sign(flaky, path));
  assert.equal(landed.status, 402);
  assert.equal(landed.body.reason, "settlement_pending");
  lands = false;
  const lost = await send(flaky, path, await payer.sign(flaky, path));
  assert.equal(lost.body.reason, "settlement_pending");
  assert.equal(before - (await balanceOf(payer.address)), 2000n);

  // The permit that never landed is still valid: kept, not dropped, nothing credited.
  assert.deepEqual(await flaky.reconciler.reconcileOnce(), { credited: 1, dropped: 0, delivered: 0 });
  assert.deepEqual(await flaky.reconciler.reconcileOnce(), { credited: 0, dropped: 0, delivered: 0 });
  assert.equal(await flaky.credits.balance(landed.body.creditCode), 2000n);
  assert.equal(await flaky.credits.balance(lost.body.creditCode), 0n);
});

test("upto: a retry carrying the payer's payment identifier gets the stored answer back, not a second charge", async () => {
  const payer = uptoPayer(0);
  const path = batchPath(["ok", "ok", "ok"]);
  const signed = await payer.sign(one, path);
  const id = `upto_${"7".repeat(20)}`;
  const payload = {
    ...signed,
    extensions: { ...signed.extensions, "payment-identifier": { info: { required: false, id } } },
  };
  const [before, runs] = [await balanceOf(payer.address), handlerRuns.count];
  const first = await one.fetch(url(path), { headers: { "payment-signature": encodeHeader(payload) } });
  assert.equal(first.status, 200);
  const retry = await two.fetch(url(path), { headers: { "payment-signature": encodeHeader(payload) } });
  assert.equal(retry.status, redisMissing ? 409 : 200);
  if (!redisMissing) {
    assert.equal(retry.headers.get("x-payment-replayed"), "true");
    assert.deepEqual(await retry.json(), await first.json());
  }
  assert.equal(handlerRuns.count - runs, 3);
  assert.equal(before - (await balanceOf(payer.address)), 3000n);
});
