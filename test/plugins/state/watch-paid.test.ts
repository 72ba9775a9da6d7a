import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { privateKeyToAccount } from "viem/accounts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { blockNow, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { startTarget, type Target } from "../../helpers/target-server.ts";
import { payerOf } from "../../helpers/ways.ts";
import { page } from "./_watch-harness.ts";

/**
 * Watch creations racing for a wallet's last slots, paid on-chain with the real gate: the slot is reserved before
 * payment, so exactly the free slots are paid for and every other creation is refused free, with no transfer
 * and no credit.
 */
type Service = Awaited<ReturnType<typeof startPaidService>>;
const CAP = 5;
let devnet: Devnet;
let target: Target;
let redis: RedisServer | undefined;
const stores: RedisStore[] = [];
let solo: Service;
let one: Service;
let two: Service;

before(async () => {
  devnet = await startDevnet();
  target = await startTarget({ "/page": { body: page("One") }, "/hook": { body: "ok" } });
  const common = {
    families: ["state"],
    egressLoopbackPort: target.port,
    env: { WATCH_MAX_PER_WALLET: String(CAP) },
  };
  solo = await startPaidService(devnet, common);
  if (redisMissing) return;
  redis = await startRedis();
  const shared = async () => {
    const store = await createRedisStore(redis!.url, pino({ level: "silent" }));
    stores.push(store);
    return startPaidService(devnet, { ...common, store });
  };
  [one, two] = [await shared(), await shared()];
});
after(async () => {
  for (const s of [solo, one, two]) await s?.close();
  for (const store of stores) await store.close();
  await redis?.stop();
  await target?.close();
  await devnet?.stop();
});

const creation = () => ({
  path: "/v1/watch",
  method: "GET" as const,
  args: { url: target.url("/page"), webhook: target.url("/hook"), interval: 300 },
});
const credits = async (s: Service) => (await s.store.keys("credit-meta:")).length;

const settings = [
  ["one instance", () => [solo, solo], 0],
  ["two instances sharing Redis", () => [one, two], 1],
] as const;

for (const [where, services, index] of settings) {
  test(`watch: 8 paid creations racing for a wallet's 3 free slots: 3 charged, 5 refused free with no transfer and no credit (${where})`, {
    skip: index === 1 && redisMissing,
  }, async () => {
    const [a, b] = services();
    const who = payerOf(devnet, privateKeyToAccount(devnet.accounts.others[index].privateKey), "exact");
    for (let i = 0; i < CAP - 3; i++) assert.equal((await who.pay(a, creation())).status, 200);
    const [fromBlock, creditsBefore] = [await blockNow(devnet), await credits(a)];

    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => who.pay(i % 2 ? b : a, creation())));
    const statuses = answers.map((x) => x.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 409, 409, 409, 409, 409], JSON.stringify(answers.map((x) => x.body)));
    assert.ok(answers.filter((x) => x.status === 409).every((x) => x.body.error.code === "watch_limit_reached"));
    const moved = await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, who.address);
    assert.deepEqual(moved, { count: 3, value: 3n * 20_000n }, "one transfer per watch created");
    assert.equal(await credits(a), creditsBefore, "no credit issued");
    const wallet = who.address.toLowerCase();
    assert.equal((await a.store.keys(`state:slot:${wallet}:`)).length, CAP, "every slot taken once");
    const watches = await Promise.all(
      (await a.store.keys("state:watch:")).map((k) => a.store.get<{ owner: string }>(k)),
    );
    assert.equal(watches.filter((w) => w?.owner === wallet).length, CAP, "one watch per slot");
  });
}
