import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { createPublicClient, createTestClient, http, type Hash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { bumpedFees, createRelayer } from "../../../core/x402/relayer.ts";
import { startDevnet, type Devnet } from "../../helpers/paid.ts";
import { accountOf, blockNow, payProbe, startInstance, transfersTo } from "../../helpers/rail.ts";

/**
 * A settlement the node holds and does not mine (automine off, a base fee risen above its fee cap, dropped from
 * the pool) must not hold the ones behind it: it is sent again or replaced at its nonce with higher fees, and
 * each authorization moves money once.
 */
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startInstance>>;
let node: ReturnType<typeof createTestClient>;
let reader: ReturnType<typeof createPublicClient>;

before(async () => {
  devnet = await startDevnet();
  node = createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) });
  reader = createPublicClient({ transport: http(devnet.rpcUrl) });
  service = await startInstance(devnet, { replaceAfterMs: 1000, confirmationTimeoutMs: 30_000 });
});

after(async () => {
  await service?.close();
  await devnet?.stop();
});

type PoolEntry = { hash: Hash; nonce: string; maxFeePerGas: string };
/** The transactions of `address` in the node's pool, pending and queued, by nonce. */
async function pooled(address: string): Promise<Record<number, PoolEntry>> {
  const content = (await reader.request({ method: "txpool_content" as any })) as Record<
    "pending" | "queued",
    Record<string, Record<string, PoolEntry>>
  >;
  const mine = (part: Record<string, Record<string, PoolEntry>>) =>
    Object.entries(part).find(([a]) => a.toLowerCase() === address.toLowerCase())?.[1] ?? {};
  return Object.fromEntries(
    Object.values({ ...mine(content.pending), ...mine(content.queued) }).map((t) => [Number(t.nonce), t]),
  );
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 30_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await sleep(50);
  }
}

const settlementOf = (header: string | null): Hash =>
  JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8")).transaction;

const relayerAddress = () => devnet.accounts.relayer.address;
const onlyPooled = async () => {
  const entries = Object.values(await pooled(relayerAddress()));
  return entries.length === 1 ? entries[0] : undefined;
};

test("bumpedFees: an eighth over the last on both caps, at least what the chain asks, never past the cap", () => {
  const last = { maxFeePerGas: 1000n, maxPriorityFeePerGas: 100n };
  assert.deepEqual(bumpedFees(last, { maxFeePerGas: 900n, maxPriorityFeePerGas: 50n }, 10_000n), {
    maxFeePerGas: 1125n,
    maxPriorityFeePerGas: 113n,
  });
  assert.deepEqual(bumpedFees(last, { maxFeePerGas: 5000n, maxPriorityFeePerGas: 300n }, 10_000n), {
    maxFeePerGas: 5000n,
    maxPriorityFeePerGas: 300n,
  });
  assert.deepEqual(bumpedFees(last, { maxFeePerGas: 5000n, maxPriorityFeePerGas: 300n }, 1100n), {
    maxFeePerGas: 1100n,
    maxPriorityFeePerGas: 300n,
  });
  assert.equal(bumpedFees(last, last, 1099n), undefined, "under a tenth more: a node would refuse it");
});

test("relayer: a transaction the node holds unmined is replaced at its nonce with higher fees, logged and counted in the backlog; the replacement lands", async () => {
  const account = privateKeyToAccount(devnet.accounts.others[5].privateKey);
  const warnings: { fields: any; message: string }[] = [];
  const relayer = createRelayer(reader as any, account, devnet.chainId, {
    replaceAfterMs: 500,
    recheckMs: 200,
    log: { warn: (fields, message) => warnings.push({ fields, message }) },
  });
  await node.setAutomine(false);
  try {
    const relayed = relayer.relay({ to: account.address, data: "0x", gas: 21_000n }, 60_000);
    const first = await until("the transaction in the pool", async () => {
      const pool = Object.values(await pooled(account.address));
      return pool[0];
    });
    const replaced = await until("its replacement in the pool", async () => {
      const now = (await pooled(account.address))[Number(first.nonce)];
      return now && now.hash !== first.hash ? now : undefined;
    });
    assert.ok(BigInt(replaced.maxFeePerGas) * 10n >= BigInt(first.maxFeePerGas) * 11n, "at least 10% more");
    assert.equal(relayer.backlog().pending, 1);
    assert.ok(relayer.backlog().oldestMs >= 500);
    assert.match(warnings[0]?.message ?? "", /not mined in time; replaced/);
    assert.equal(warnings[0].fields.nonce, Number(first.nonce));
    await node.mine({ blocks: 1 });
    const { hash, receipt } = await relayed;
    assert.equal(receipt.status, "success");
    assert.equal((await reader.getTransaction({ hash })).nonce, Number(first.nonce));
    assert.notEqual(hash, first.hash, "the replacement was mined, not the first");
    assert.deepEqual(relayer.backlog(), { pending: 0, oldestMs: 0, oldestNonce: undefined });
  } finally {
    await node.setAutomine(true);
  }
});

test("relayer: a settlement held under a base fee risen above its fee cap is replaced; the 4 sent behind it land too: 5 answers, 5 transfers, one per authorization", async () => {
  const payer = accountOf(devnet, 0);
  const from = (await blockNow(devnet)) + 1n;
  await node.setAutomine(false);
  let held: ReturnType<typeof payProbe>;
  let first: PoolEntry;
  try {
    held = payProbe(service, payer, "held");
    first = await until("the first settlement in the pool", onlyPooled);
    // The next block's base fee far above what the settlement offers: the node drops it from its pool.
    await reader.request({
      method: "anvil_setNextBlockBaseFeePerGas" as any,
      params: [`0x${(BigInt(first.maxFeePerGas) * 4n).toString(16)}`] as any,
    });
    await node.mine({ blocks: 1 });
    assert.deepEqual(await pooled(relayerAddress()), {}, "the node no longer holds it");
  } finally {
    await node.setAutomine(true);
  }
  // Past the relayer's one-second fee estimate: the calls behind are signed for the risen base fee and taken.
  await sleep(1100);
  const behind = Array.from({ length: 4 }, (_, i) => payProbe(service, payer, `behind${i}`));
  const answers = await Promise.all([held, ...behind]);
  assert.deepEqual(
    answers.map(({ res }) => res.status),
    [200, 200, 200, 200, 200],
    JSON.stringify(answers.find(({ res }) => res.status !== 200)?.body),
  );
  const settlements = await Promise.all(
    answers.map(({ res }) => reader.getTransaction({ hash: settlementOf(res.headers.get("payment-response")) })),
  );
  const atNonce = settlements.find((t) => t.nonce === Number(first.nonce));
  assert.ok(atNonce, "one of the answered calls settled at the held nonce");
  assert.notEqual(atNonce.hash, first.hash, "a replacement landed at the held nonce");
  assert.ok(atNonce.maxFeePerGas! * 10n >= BigInt(first.maxFeePerGas) * 11n);
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 5,
    value: 5000n,
  });
});

test("relayer: a settlement the node dropped from its pool is sent again; the 2 behind it land: 3 answers, 3 transfers", async () => {
  const payer = accountOf(devnet, 1);
  const from = (await blockNow(devnet)) + 1n;
  await node.setAutomine(false);
  let held: ReturnType<typeof payProbe>;
  try {
    held = payProbe(service, payer, "dropped");
    const first = await until("the first settlement in the pool", onlyPooled);
    await reader.request({ method: "anvil_dropTransaction" as any, params: [first.hash] as any });
    assert.deepEqual(await pooled(relayerAddress()), {});
  } finally {
    await node.setAutomine(true);
  }
  const answers = await Promise.all([held, payProbe(service, payer, "after0"), payProbe(service, payer, "after1")]);
  assert.deepEqual(
    answers.map(({ res }) => res.status),
    [200, 200, 200],
  );
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 3,
    value: 3000n,
  });
});
