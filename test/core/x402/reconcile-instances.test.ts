import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import type { Hex } from "viem";
import type { Store } from "../../../core/endpoint.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { createReconciler } from "../../../core/payment/reconcile.ts";
import { x402Fates } from "../../../core/x402/schemes.ts";
import { startDevnet, type Devnet } from "../../helpers/paid.ts";
import { accountOf, blockNow, cancelOnChain, payProbe, startInstance, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { startRpcProxy, type RpcProxy } from "../../helpers/rpc-proxy.ts";

/**
 * Two instances on one Redis, each with its reconciler ticking faster than the chain answers a read
 * (RECONCILE_READ_DELAY_MS, 8 s by default, against a 300 ms tick): the credits funded must equal, exactly,
 * the value that moved on-chain to payTo for the calls answered settlement_pending.
 */
const readDelayMs = Number(process.env.RECONCILE_READ_DELAY_MS ?? 8000);
const tickMs = 300;
const price = 1000n;
let devnet: Devnet;
let redis: RedisServer;
let sendProxy: RpcProxy;
let slowReads: RpcProxy;
let instances: Awaited<ReturnType<typeof startInstance>>[];
let settling: "normal" | "lands" = "normal";

const landsThenTimesOut = (local: Facilitator): Facilitator => ({
  verify: local.verify,
  async settle(payload, requirements) {
    const settled = await local.settle(payload, requirements);
    if (settling === "lands")
      throw Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });
    return settled;
  },
});

before(async () => {
  if (redisMissing) return;
  [devnet, redis] = await Promise.all([startDevnet(), startRedis()]);
  [sendProxy, slowReads] = await Promise.all([startRpcProxy(devnet.rpcUrl), startRpcProxy(devnet.rpcUrl)]);
  const options = {
    redisUrl: redis.url,
    facilitator: landsThenTimesOut,
    rpcUrl: sendProxy.url,
    confirmationTimeoutMs: 3000,
  };
  instances = await Promise.all([startInstance(devnet, options), startInstance(devnet, options)]);
});

after(async () => {
  await Promise.all((instances ?? []).map((i) => i.close()));
  await Promise.all([sendProxy?.close(), slowReads?.close()]);
  await redis?.stop();
  await devnet?.stop();
});

/** `count` calls whose transfer landed though the settlement was reported timed out, alternating instances. */
async function landedPending(payer: ReturnType<typeof accountOf>, count: number) {
  settling = "lands";
  try {
    const codes: string[] = [];
    for (let i = 0; i < count; i++) {
      const { body } = await payProbe(instances[i % 2], payer, `landed${i}`);
      assert.equal(body.reason, "settlement_pending");
      codes.push(body.creditCode);
    }
    return codes;
  } finally {
    settling = "normal";
  }
}

/** `count` calls whose settlement never reached the node, then cancelled on-chain by the payer. */
async function cancelledPending(payer: ReturnType<typeof accountOf>, count: number) {
  sendProxy.swallowSends(1000);
  const calls = await Promise.all(
    Array.from({ length: count }, (_, i) => payProbe(instances[0], payer, `cancelled${i}`)),
  ).finally(() => sendProxy.swallowSends(0));
  for (const { body, authorization } of calls) {
    assert.equal(body.reason, "settlement_pending");
    await cancelOnChain(devnet, payer, authorization.nonce as Hex);
  }
  return calls.map(({ body }) => body.creditCode as string);
}

/** Both instances' reconcilers ticking on slow reads until every pending record is resolved, then stopped. */
async function reconcileOnBoth(stores: Store[]) {
  let resolved!: () => void;
  const done = new Promise<void>((resolve) => (resolved = resolve));
  const reconcilers = instances.map(({ ledger, credits }, i) => {
    const watched = {
      ...ledger,
      async resolvePending(...args: Parameters<typeof ledger.resolvePending>) {
        await ledger.resolvePending(...args);
        if ((await ledger.pendingSettlements()).length === 0) resolved();
      },
    };
    return createReconciler({
      store: stores[i],
      fates: x402Fates(),
      ledger: watched,
      credits,
      rpcUrl: slowReads.url,
      log: pino({ level: "silent" }),
      intervalMs: tickMs,
      lockTtlMs: 3 * tickMs,
    });
  });
  slowReads.readDelayMs = readDelayMs;
  for (const r of reconcilers) r.start();
  await done;
  await Promise.all(reconcilers.map((r) => r.stop()));
}

const creditsOf = async (codes: string[]) => {
  const balances = await Promise.all(codes.map(async (code) => (await instances[0].credits.balance(code)) ?? 0n));
  return { funded: balances.filter((b) => b > 0n).length, value: balances.reduce((a, b) => a + b, 0n) };
};

test("reconcile: two instances, reads slower than ticks: credits funded equal the value that moved, exactly (9 landed, 3 cancelled)", {
  skip: redisMissing,
}, async () => {
  const payer = accountOf(devnet, 0);
  const from = (await blockNow(devnet)) + 1n;
  const landed = await landedPending(payer, 9);
  const cancelled = await cancelledPending(payer, 3);
  await reconcileOnBoth(instances.map((i) => i.store));
  const moved = await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address);
  assert.deepEqual(moved, { count: 9, value: 9n * price });
  assert.deepEqual(await creditsOf([...landed, ...cancelled]), { funded: 9, value: moved.value });
  assert.deepEqual(await creditsOf(cancelled), { funded: 0, value: 0n });
});

test("reconcile: two reconcilers that both hold the lock at once still fund each authorization once (6 landed)", {
  skip: redisMissing,
}, async () => {
  const payer = accountOf(devnet, 1);
  const from = (await blockNow(devnet)) + 1n;
  const landed = await landedPending(payer, 6);
  // Every claim and renewal of the lock succeeds: both hold it all along, as a split store or a stalled holder could.
  const isLock = (key: string) => key === "lock:x402:reconcile";
  const lockless = instances.map(
    ({ store }): Store => ({
      ...store,
      claim: (key, value, ttlMs) => (isLock(key) ? Promise.resolve(true) : store.claim(key, value, ttlMs)),
      renewIf: (key, value, ttlMs) => (isLock(key) ? Promise.resolve(true) : store.renewIf(key, value, ttlMs)),
    }),
  );
  await reconcileOnBoth(lockless);
  const moved = await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address);
  assert.deepEqual(moved, { count: 6, value: 6n * price });
  assert.deepEqual(await creditsOf(landed), { funded: 6, value: moved.value });
});
