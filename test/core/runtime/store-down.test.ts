import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { accountOf, blockNow, payProbe, probeUrl, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";

/**
 * Redis unreachable: a paid call is refused with 503 store_unavailable before any payment work (no verify, no
 * settlement, no handler), a free call that needs no store goes on, and once Redis is back paid calls succeed.
 */
const freeRuns = { count: 0 };
const free = definePlugin({
  family: "free",
  endpoints: [
    defineEndpoint({
      name: "free-echo",
      method: "GET",
      price: "$0",
      summary: "Echoes, for nothing",
      input: v.object({ echo: v.optional(v.string(), "") }),
      output: v.object({ echo: v.string() }),
      example: { input: { echo: "hi" }, output: { echo: "hi" } },
      handler: ({ input }) => {
        freeRuns.count++;
        return { echo: input.echo };
      },
    }),
  ],
});

let devnet: Devnet;
let redis: RedisServer;
let store: RedisStore;
let service: Awaited<ReturnType<typeof startPaidService>>;
const facilitatorCalls = { verify: 0, settle: 0 };

before(async () => {
  if (redisMissing) return;
  [devnet, redis] = await Promise.all([startDevnet(), startRedis()]);
  store = await createRedisStore(redis.url, pino({ level: "silent" }));
  service = await startPaidService(devnet, {
    plugins: [probePlugin, free],
    store,
    env: { RATE_LIMIT_PER_MINUTE: "600" },
    facilitator: (real): Facilitator => ({
      ...real,
      verify: (payload, requirements) => (facilitatorCalls.verify++, real.verify(payload, requirements)),
      settle: (payload, requirements) => (facilitatorCalls.settle++, real.settle(payload, requirements)),
    }),
  });
});

after(async () => {
  await service?.close();
  await store?.close();
  await redis?.stop();
  await devnet?.stop();
});

async function until(what: string, holds: () => boolean) {
  const deadline = Date.now() + 30_000;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await sleep(20);
  }
}

test("store down: paid calls answer 503 store_unavailable with Retry-After and 0 verifies, settlements, handler runs or transfers; a free call answers 200; after the restart a paid call settles", {
  skip: redisMissing,
}, async () => {
  const payer = accountOf(devnet, 0);
  assert.equal((await payProbe(service, payer, "before")).res.status, 200);
  const required = await challengeOf(service.fetch, probeUrl("down"));
  const { header } = await v2Header(payer, required);
  const from = (await blockNow(devnet)) + 1n;
  const before = { ...facilitatorCalls, handler: handlerRuns.count, free: freeRuns.count };
  const down: { status: number; code?: string; retryAfter: string | null }[] = [];
  await redis.restart(async () => {
    await until("the store to notice Redis is gone", () => store.reachable?.() === false);
    for (const headers of [{ "payment-signature": header }, {}] as Record<string, string>[]) {
      const res = await service.fetch(probeUrl("down"), { headers });
      down.push({
        status: res.status,
        code: (await res.json()).error?.code,
        retryAfter: res.headers.get("retry-after"),
      });
    }
    const freeCall = await service.fetch("http://127.0.0.1:4021/v1/free-echo?echo=up");
    assert.equal(freeCall.status, 200, "a free call needing no store still answers");
    assert.equal((await freeCall.json()).data.echo, "up");
  });
  assert.deepEqual(down, [
    { status: 503, code: "store_unavailable", retryAfter: "5" },
    { status: 503, code: "store_unavailable", retryAfter: "5" },
  ]);
  assert.deepEqual(
    {
      verify: facilitatorCalls.verify - before.verify,
      settle: facilitatorCalls.settle - before.settle,
      handler: handlerRuns.count - before.handler,
      free: freeRuns.count - before.free,
    },
    { verify: 0, settle: 0, handler: 0, free: 1 },
  );
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 0,
    value: 0n,
  });

  await until("the store to reconnect", () => store.reachable?.() === true);
  const again = await service.fetch(probeUrl("down"), { headers: { "payment-signature": header } });
  assert.equal(again.status, 200, "the payment refused while down is taken once Redis is back");
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 1,
    value: 1000n,
  });
});
