import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import pino from "pino";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { redisClusterMissing, startRedisCluster, type RedisCluster } from "../../helpers/redis.ts";
import { startTestService } from "../../helpers/service.ts";
import { challengeOf, newPaymentId, v2Header } from "../../helpers/sign.ts";
import { storeContract } from "./store-contract.ts";

// Everything here runs on a Redis Cluster of three masters the file starts (redis-server, redis-cli --cluster create).
const skip = redisClusterMissing;
const log = pino({ level: "silent" });
const url = (path: string) => `http://127.0.0.1:4021${path}`;
type Paid = Awaited<ReturnType<typeof startPaidService>>;

let cluster: RedisCluster;
let devnet: Devnet;
let store: RedisStore;
let a: Paid;
let b: Paid;
const stores: RedisStore[] = [];
const openStore = async () => {
  const opened = await createRedisStore(cluster.url, log);
  stores.push(opened);
  return opened;
};

/** What a node answers to a redis-cli command. */
const cli = (port: number, ...args: string[]) =>
  spawnSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8" }).stdout.trim();

before(async () => {
  if (skip) return;
  [cluster, devnet] = await Promise.all([startRedisCluster(), startDevnet()]);
  store = await openStore();
  const shared = { plugins: [probePlugin], batch: { storeUrl: cluster.url } };
  a = await startPaidService(devnet, { ...shared, store: await openStore() });
  b = await startPaidService(devnet, { ...shared, store: await openStore() });
});

after(async () => {
  if (skip) return;
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all(stores.map((s) => s.close()));
  await Promise.all([cluster?.stop(), devnet?.stop()]);
});

storeContract(
  "redis cluster store",
  async () => {
    for (const port of cluster.ports) cli(port, "flushall");
    return store;
  },
  { skip },
);

test("redis cluster: keys spread over the three masters, and keys(prefix) finds them on every one", {
  skip,
}, async () => {
  const keys = Array.from({ length: 60 }, (_, i) => `spread:${i}`);
  await Promise.all(keys.map((key) => store.set(key, 1)));
  const held = cluster.ports.map((port) => Number(cli(port, "eval", "return #redis.call('KEYS', 'spread:*')", "0")));
  assert.ok(
    held.every((count) => count > 0),
    `keys per master: ${held}`,
  );
  assert.equal(
    held.reduce((x, y) => x + y),
    60,
  );
  assert.deepEqual((await store.keys("spread:")).sort(), [...keys].sort());
});

test("redis cluster: STORE_URL naming one node is found to be a cluster; the service reads and writes through it", {
  skip,
}, async () => {
  const service = await startTestService({ given: [], env: { STORE_URL: cluster.url } });
  assert.deepEqual(await (await service.request("/ready")).json(), { status: "ready", checks: { store: "ok" } });
  const keys = Array.from({ length: 12 }, (_, i) => `boot:${i}`);
  await Promise.all(keys.map((key) => service.runtime.store.set(key, { via: "STORE_URL" })));
  for (const key of keys) assert.deepEqual(await store.get(key), { via: "STORE_URL" });
  await service.close();
});

test("redis cluster: a payment replayed against two instances at once is granted once and moves the price once", {
  skip,
}, async () => {
  const required = await challengeOf(a.fetch, url("/v1/probe?echo=cluster"));
  const payer = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const { header } = await v2Header(payer, required, {}, undefined, newPaymentId());
  const chain = chainReader(devnet);
  const before = await chain.balance(devnet.accounts.payTo.address);
  const runs = handlerRuns.count;
  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? b : a).fetch(url("/v1/probe?echo=cluster"), { headers: { "payment-signature": header } }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(statuses.filter((s) => s === 409).length, 11, String(statuses));
  assert.equal(handlerRuns.count - runs, 1);
  assert.equal((await chain.balance(devnet.accounts.payTo.address)) - before, 1000n);
});

test("redis cluster: a credit spent on both instances at once never goes below zero", { skip }, async () => {
  const code = await a.credits.issue(3000n, "test");
  const runs = handlerRuns.count;
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? b : a).fetch(url(`/v1/probe?echo=c${i}`), { headers: { "x-credit-code": code } }),
    ),
  );
  assert.equal(responses.filter((r) => r.status === 200).length, 3, String(responses.map((r) => r.status)));
  assert.equal(handlerRuns.count - runs, 3);
  assert.equal(await b.credits.balance(code), 0n);
});

/** A payer on vouchers through the real client, sending what it signed by hand so a test can send it twice. */
function voucherPayer(index: number) {
  const account = privateKeyToAccount(devnet.accounts.others[index].privateKey);
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const client = new x402Client()
    .register(
      devnet.network,
      new BatchClient(toClientEvmSigner(account, reader), {
        depositStrategy: () => "10000",
        salt: `0x${"0".repeat(64)}`,
      }),
    )
    .setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((option) => option.scheme === "batch-settlement"));
  return {
    async sign(service: Paid): Promise<PaymentPayload> {
      const res = await service.fetch(url("/v1/probe"));
      return client.createPaymentPayload(
        JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString()),
      );
    },
    async send(service: Paid, payload: PaymentPayload) {
      const res = await service.fetch(url("/v1/probe"), { headers: { "payment-signature": encodeHeader(payload) } });
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

test("redis cluster: one voucher raced on two instances is granted once; every channel is listed for the claim", {
  skip,
}, async () => {
  const payers = [0, 1, 2, 3].map(voucherPayer);
  for (const payer of payers) assert.equal(await payer.send(a, await payer.sign(a)), 200);
  const voucher = await payers[0].sign(a);
  const runs = handlerRuns.count;
  const statuses = await Promise.all(
    Array.from({ length: 20 }, (_, i) => payers[0].send(i % 2 ? b : a, structuredClone(voucher))),
  );
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(handlerRuns.count - runs, 1);
  const channelId = (voucher.payload as { voucher: { channelId: string } }).voucher.channelId;
  assert.equal((await b.batch!.scheme.getStorage().get(channelId))?.chargedCumulativeAmount, "2000");
  // The claim claims what the channel store lists: the four channels, wherever their keys landed.
  const listed = await a.batch!.scheme.getStorage().list();
  assert.equal(listed.length, 4);
  const masters = cluster.ports.filter((port) =>
    Number(cli(port, "eval", "return #redis.call('KEYS', 'x402:batch:*')", "0")),
  );
  assert.ok(masters.length >= 2, `the channels are on ${masters.length} master(s)`);
});
