import { after, before } from "node:test";
import pino from "pino";
import { createClient } from "@keyv/redis";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
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

storeContract("redis store", async () => {
  await admin.flushDb();
  return store;
}, { skip: redisMissing });
