import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { createClient } from "@keyv/redis";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { startTestService } from "../../helpers/service.ts";
import { storeContract } from "./store-contract.ts";

let redis: RedisServer;
let store: RedisStore;
let admin: { flushDb(): Promise<unknown>; close(): Promise<void> };

before(async () => {
  if (redisMissing) return;
  redis = await startRedis();
  store = await createRedisStore(redis.url, pino({ level: "silent" }));
  admin = await createClient({ url: redis.url }).connect();
});

after(async () => {
  if (redisMissing) return;
  await admin.close();
  await store.close();
  await redis.stop();
});

storeContract(
  "redis store",
  async () => {
    await admin.flushDb();
    return store;
  },
  { skip: redisMissing },
);

test("STORE_URL makes the service open Redis itself, share it, and close it on shutdown", {
  skip: redisMissing,
}, async () => {
  const service = await startTestService({ given: [], env: { STORE_URL: redis.url } });
  await service.runtime.store.set("boot:seen", { via: "STORE_URL" });
  assert.deepEqual(await store.get("boot:seen"), { via: "STORE_URL" });
  assert.deepEqual(await (await service.request("/ready")).json(), { status: "ready", checks: { store: "ok" } });
  await service.close();
  await assert.rejects(service.runtime.store.get("boot:seen"), "the service's own connection is closed");
});
