import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startDevnet, type Devnet } from "../../helpers/paid.ts";
import { accountOf, blockNow, payProbe, startInstance, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";

/**
 * Two instances settling with one relayer key on one Redis, as compose.yaml runs them: each counts the
 * relayer's nonces itself, so each regularly sends a nonce the other has used. Every honest call must still
 * be answered and paid once.
 */
let devnet: Devnet;
let redis: RedisServer;
let instances: Awaited<ReturnType<typeof startInstance>>[];

before(async () => {
  if (redisMissing) return;
  [devnet, redis] = await Promise.all([startDevnet(), startRedis()]);
  instances = await Promise.all([
    startInstance(devnet, { redisUrl: redis.url }),
    startInstance(devnet, { redisUrl: redis.url }),
  ]);
});

after(async () => {
  await Promise.all((instances ?? []).map((i) => i.close()));
  await redis?.stop();
  await devnet?.stop();
});

const tally = (statuses: { status: number; reason?: string }[]) => ({
  answered: statuses.filter((s) => s.status === 200).length,
  pending: statuses.filter((s) => s.reason === "settlement_pending").length,
});

test("relayer: 100 alternating calls on two instances with one relayer key: 100 answered, 0 settlement_pending, 100 transfers", {
  skip: redisMissing,
}, async () => {
  const payer = accountOf(devnet, 0);
  const from = (await blockNow(devnet)) + 1n;
  const seen: { status: number; reason?: string }[] = [];
  for (let i = 0; i < 100; i++) {
    const { res, body } = await payProbe(instances[i % 2], payer, `alt${i}`);
    seen.push({ status: res.status, reason: body.reason });
  }
  assert.deepEqual(tally(seen), { answered: 100, pending: 0 });
  const moved = await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address);
  assert.deepEqual(moved, { count: 100, value: 100n * 1000n });
});

test("relayer: a burst of 40 concurrent calls over two instances with one relayer key: 40 answered, 0 settlement_pending, 40 transfers", {
  skip: redisMissing,
}, async () => {
  const payer = accountOf(devnet, 1);
  const from = (await blockNow(devnet)) + 1n;
  const calls = Array.from({ length: 40 }, (_, i) => payProbe(instances[i % 2], payer, `burst${i}`));
  const seen = (await Promise.all(calls)).map(({ res, body }) => ({ status: res.status, reason: body.reason }));
  assert.deepEqual(tally(seen), { answered: 40, pending: 0 });
  const moved = await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address);
  assert.deepEqual(moved, { count: 40, value: 40n * 1000n });
});
