import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient, signVoucher } from "@x402/evm/batch-settlement/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetChain, usdcBalance } from "../../../core/x402/devnet/index.ts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { startRedis, type RedisServer } from "../../helpers/redis.ts";

type Service = Awaited<ReturnType<typeof startPaidService>>;
let devnet: Devnet;
let redis: RedisServer;
let one: Service;
let two: Service;
let payToAtStart: bigint;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const DEPOSIT = 10_000n; // ten calls at $0.001

before(async () => {
  devnet = await startDevnet();
  redis = await startRedis();
  one = await startPaidService(devnet, { plugins: [probePlugin], batch: { storeUrl: redis.url } });
  two = await startPaidService(devnet, { plugins: [probePlugin], batch: { storeUrl: redis.url } });
  payToAtStart = await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address);
});
after(async () => {
  await one?.close();
  await two?.close();
  await redis?.stop();
  await devnet?.stop();
});

/** A payer that signs with the real client but sends what it signed by hand, as an attacker would. */
function attacker(index: number, deposit = DEPOSIT, salt: `0x${string}` = `0x${"0".repeat(64)}`) {
  const account = privateKeyToAccount(devnet.accounts.others[index].privateKey);
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const signer = toClientEvmSigner(account, reader);
  const client = new x402Client()
    .register(devnet.network, new BatchClient(signer, { depositStrategy: () => deposit.toString(), salt }))
    .setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  return {
    signer,
    async sign(service: Service, path = "/v1/probe"): Promise<PaymentPayload> {
      const res = await service.fetch(url(path));
      const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
      return client.createPaymentPayload(required);
    },
    /** Sends a payload; on a 200 the client learns the new channel state, as @x402/fetch would. */
    async send(service: Service, payload: PaymentPayload, path = "/v1/probe") {
      const res = await service.fetch(url(path), { headers: { "payment-signature": encodeHeader(payload) } });
      const receipt = res.headers.get("payment-response");
      if (receipt) {
        const settleResponse = JSON.parse(Buffer.from(receipt, "base64").toString());
        await client.handlePaymentResponse({ paymentPayload: payload, requirements: payload.accepted, settleResponse });
      }
      await res.body?.cancel();
      return res.status;
    },
  };
}

const channelOf = async (service: Service, payload: PaymentPayload) =>
  service.batch!.scheme.getStorage().get((payload.payload as { voucher: { channelId: string } }).voucher.channelId);

test("batch-settlement: a replayed voucher grants nothing, on the same or the other instance", async () => {
  const a = attacker(0);
  const deposit = await a.sign(one);
  assert.equal(await a.send(one, deposit), 200);
  const voucher = await a.sign(one);
  assert.equal(await a.send(one, voucher), 200);
  const runs = handlerRuns.count;
  const replays = await Promise.all([a.send(one, voucher), a.send(two, voucher), a.send(two, deposit)]);
  assert.deepEqual(replays, [402, 402, 402]);
  assert.equal(handlerRuns.count, runs);
  assert.equal((await channelOf(one, voucher))?.chargedCumulativeAmount, "2000");
});

test("batch-settlement: one voucher raced on two instances is granted once", async () => {
  const a = attacker(1);
  assert.equal(await a.send(one, await a.sign(one)), 200);
  const voucher = await a.sign(one);
  const runs = handlerRuns.count;
  const statuses = await Promise.all(
    Array.from({ length: 20 }, (_, i) => a.send(i % 2 ? two : one, structuredClone(voucher))),
  );
  assert.equal(statuses.filter((s) => s === 200).length, 1);
  assert.equal(handlerRuns.count - runs, 1);
  assert.equal((await channelOf(two, voucher))?.chargedCumulativeAmount, "2000");
});

test("batch-settlement: a stale (older) voucher after a newer one grants nothing", async () => {
  const a = attacker(2);
  assert.equal(await a.send(one, await a.sign(one)), 200);
  const first = await a.sign(one);
  assert.equal(await a.send(one, first), 200);
  const second = await a.sign(one);
  assert.equal(await a.send(two, second), 200);
  const runs = handlerRuns.count;
  assert.equal(await a.send(one, first), 402);
  assert.equal(handlerRuns.count, runs);
  assert.equal((await channelOf(one, second))?.chargedCumulativeAmount, "3000");
});

test("batch-settlement: a voucher above the deposit grants nothing", async () => {
  const a = attacker(3);
  const deposit = await a.sign(one);
  assert.equal(await a.send(one, deposit), 200);
  const voucher = await a.sign(one);
  const raw = voucher.payload as { voucher: { channelId: `0x${string}`; maxClaimableAmount: string } };
  // The server expects charged + price; a voucher that jumps past the deposit is refused either way.
  const over = await signVoucher(a.signer, raw.voucher.channelId, String(DEPOSIT + 1000n), devnet.network);
  const forged = { ...voucher, payload: { ...voucher.payload, voucher: over } } as PaymentPayload;
  const runs = handlerRuns.count;
  assert.equal(await a.send(one, forged), 402);
  assert.equal(handlerRuns.count, runs);
  assert.equal((await channelOf(one, voucher))?.chargedCumulativeAmount, "1000");
});

test("batch-settlement: a failed call charges nothing and its voucher still pays the next call", async () => {
  const a = attacker(4);
  assert.equal(await a.send(one, await a.sign(one)), 200);
  const voucher = await a.sign(one, "/v1/probe?outcome=bad");
  assert.equal(await a.send(one, voucher, "/v1/probe?outcome=bad"), 400);
  assert.equal((await channelOf(one, voucher))?.chargedCumulativeAmount, "1000");
  assert.equal(await a.send(two, voucher), 200);
  assert.equal((await channelOf(one, voucher))?.chargedCumulativeAmount, "2000");
});

test("batch-settlement: ten calls on a ten-call deposit are all granted and the charge stays within the deposit", async () => {
  const a = attacker(5);
  let granted = 0;
  for (let i = 0; i < 10; i++) if ((await a.send(one, await a.sign(one))) === 200) granted++;
  assert.equal(granted, 10);
  const channel = await channelOf(one, await a.sign(one));
  assert.equal(channel?.chargedCumulativeAmount, DEPOSIT.toString());
  assert.equal(BigInt(channel!.chargedCumulativeAmount) <= BigInt(channel!.balance), true);
});

test("batch-settlement: the call after a deposit's last one is refused, whatever the voucher claims", async () => {
  const a = attacker(0, DEPOSIT, `0x${"0".repeat(63)}2`);
  for (let i = 0; i < 10; i++) assert.equal(await a.send(one, await a.sign(one)), 200);
  // The real client would top the deposit up here; a plain voucher claiming the eleventh call is sent instead.
  const template = await a.sign(one);
  const { channelConfig, voucher } = template.payload as {
    channelConfig: object;
    voucher: { channelId: `0x${string}` };
  };
  const eleventh = await signVoucher(a.signer, voucher.channelId, String(DEPOSIT + 1000n), devnet.network);
  const plain = { ...template, payload: { type: "voucher", channelConfig, voucher: eleventh } } as PaymentPayload;
  const runs = handlerRuns.count;
  const statuses = [];
  for (const service of [one, two]) statuses.push(await a.send(service, plain));
  assert.deepEqual(statuses, [402, 402]);
  assert.equal(handlerRuns.count, runs);
  assert.equal((await channelOf(one, template))?.chargedCumulativeAmount, DEPOSIT.toString());
});

const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** The same signature with s mirrored (n - s) and v flipped: valid for ecrecover's math, refused by the escrow. */
function highS(signature: string): `0x${string}` {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16) === 27 ? "1c" : "1b";
  return `${signature.slice(0, 66)}${(curveOrder - s).toString(16).padStart(64, "0")}${v}` as `0x${string}`;
}

test("batch-settlement: a voucher signed by anyone but the channel's authorizer, or in a form the escrow refuses, grants nothing", async () => {
  const a = attacker(2, DEPOSIT, `0x${"0".repeat(63)}3`);
  const mallory = attacker(1);
  assert.equal(await a.send(one, await a.sign(one)), 200);
  const honest = await a.sign(one);
  const raw = honest.payload as {
    voucher: { channelId: `0x${string}`; maxClaimableAmount: string; signature: string };
  };
  const byMallory = await signVoucher(
    mallory.signer,
    raw.voucher.channelId,
    raw.voucher.maxClaimableAmount,
    devnet.network,
  );
  // Mallory names herself the authorizer: the config no longer hashes to the channel id.
  const config = (honest.payload as { channelConfig: Record<string, unknown> }).channelConfig;
  const forgeries = [
    { ...honest, payload: { ...honest.payload, voucher: byMallory } },
    { ...honest, payload: { ...honest.payload, voucher: { ...raw.voucher, signature: highS(raw.voucher.signature) } } },
    {
      ...honest,
      payload: {
        ...honest.payload,
        voucher: byMallory,
        channelConfig: { ...config, payerAuthorizer: mallory.signer.address },
      },
    },
  ] as PaymentPayload[];
  const runs = handlerRuns.count;
  const statuses = [];
  for (const forged of forgeries) for (const service of [one, two]) statuses.push(await a.send(service, forged));
  assert.deepEqual(statuses, [402, 402, 402, 402, 402, 402]);
  assert.equal(handlerRuns.count, runs);
  assert.equal((await channelOf(one, honest))?.chargedCumulativeAmount, "1000");
  assert.equal(await a.send(two, honest), 200);
  assert.equal((await channelOf(one, honest))?.chargedCumulativeAmount, "2000");
});

const batchPath = (outcomes: string[]) =>
  `/v1/batch?calls=${encodeURIComponent(JSON.stringify(outcomes.map((outcome) => ({ path: "/v1/probe", params: { outcome } }))))}`;

test("batch-settlement: the batch paid by voucher charges only the items that succeeded, and credits nothing", async () => {
  const a = attacker(6, 100_000n);
  assert.equal(await a.send(one, await a.sign(one)), 200);
  const path = batchPath(["ok", "ok", "bad", "ok"]);
  const voucher = await a.sign(one, path);
  const res = await one.fetch(url(path), { headers: { "payment-signature": encodeHeader(voucher) } });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.data.succeeded, 3);
  assert.equal(body.data.credit, null);
  // $0.001 for the first call, then three probes at $0.001 of the batch's $0.05 reserved.
  assert.equal((await channelOf(one, voucher))?.chargedCumulativeAmount, "4000");
});

test("batch-settlement: batches raced on one channel cannot overdraw it: one reservation at a time", async () => {
  const a = attacker(6, 100_000n, `0x${"0".repeat(63)}1`);
  assert.equal(await a.send(one, await a.sign(one)), 200);
  const path = batchPath(["ok", "ok"]);
  const voucher = await a.sign(one, path);
  const statuses = await Promise.all(
    Array.from({ length: 10 }, (_, i) => a.send(i % 2 ? two : one, structuredClone(voucher), path)),
  );
  assert.equal(statuses.filter((s) => s === 200).length, 1);
  assert.equal((await channelOf(two, voucher))?.chargedCumulativeAmount, "3000");
});

test("batch-settlement: one instance claims every channel both instances accepted, and payTo receives exactly what was charged", async () => {
  const channels = await one.batch!.scheme.getStorage().list();
  const charged = channels.reduce((sum, c) => sum + BigInt(c.chargedCumulativeAmount), 0n);
  assert.ok(channels.length >= 8, `${channels.length} channels`);
  const { claims, settle } = await two.batch!.manager.claimAndSettle();
  assert.equal(claims.length, 1);
  assert.ok(settle);
  const received =
    (await usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address)) - payToAtStart;
  assert.equal(received, charged);
  assert.deepEqual(await one.batch!.manager.getClaimableVouchers(), []);
});
