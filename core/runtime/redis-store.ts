import Keyv from "keyv";
import KeyvRedis from "@keyv/redis";
import type { Logger } from "pino";
import type { Store } from "../endpoint.ts";
import { ServiceError, unavailable } from "./errors.ts";
import { connectRedis } from "./redis-connect.ts";

export type RedisStore = Store & {
  /** Answers when Redis does; throws when it is unreachable (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

// Each script runs inside Redis as one command, so no other client sees a state half-way through.
const incrementScript = `
local existed = redis.call('EXISTS', KEYS[1])
local value = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
if existed == 0 and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;

const takeScript = `
local held = tonumber(redis.call('GET', KEYS[1]) or '')
if held == nil or held < tonumber(ARGV[1]) then return false end
return redis.call('INCRBYFLOAT', KEYS[1], '-' .. ARGV[1])`;

const deleteIfScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const renewIfScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

// The members scoring at least the count-th score: ties at the cut are then ordered like the memory store.
const topScript = `
local cut = redis.call('ZREVRANGE', KEYS[1], ARGV[1] - 1, ARGV[1] - 1, 'WITHSCORES')
if #cut == 0 then return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES') end
return redis.call('ZRANGEBYSCORE', KEYS[1], cut[2], '+inf', 'WITHSCORES')`;

/**
 * The shared store on Redis (`STORE_URL`): keyv with @keyv/redis for get/set/delete with a TTL, the atomic
 * operations as single Redis commands or Lua scripts. Values are stored as plain JSON (without keyv's
 * envelope), so a counter written by INCRBYFLOAT reads back through keyv as a number.
 * `url` may name one server or a node of a Redis Cluster: every operation touches one key (each script declares
 * it in KEYS), so each goes whole to the master that holds it; `keys` scans every master.
 */
export async function createRedisStore(url: string, log: Logger): Promise<RedisStore> {
  let lastError = "";
  // The client's own events say when the connection is lost and when it is back: paid calls wait for the latter.
  let reachable = true;
  const { client, scan, close } = await connectRedis(url, {
    onError(err) {
      // A down Redis reports every reconnect attempt: log each distinct failure once.
      if (err.message !== lastError) log.error({ err }, "redis error");
      lastError = err.message;
      reachable = false;
    },
    onReady() {
      if (lastError) log.info("redis connection restored");
      lastError = "";
      reachable = true;
    },
  });
  const adapter = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv({
    store: adapter,
    namespace: undefined,
    useKeyPrefix: false,
    throwOnErrors: true,
    serialize: (data) => JSON.stringify(data.value) ?? "null",
    deserialize: (text) => ({ value: JSON.parse(text) }),
  });
  keyv.on("error", () => {}); // thrown to the caller as well (throwOnErrors); the client's listener logs it

  const script = (source: string, keys: string[], args: (string | number)[]) =>
    client.eval(source, { keys, arguments: args.map(String) });

  // @keyv/redis reconnects a closed client on its next command: after close() nothing may reach it.
  let closed = false;
  const open = () => {
    if (closed) throw new Error("the Redis store is closed");
    return keyv;
  };

  return unavailableOnError({
    get: async <T>(key: string) => (await open().get(key)) as T | undefined,
    async set(key, value, ttlMs) {
      await open().set(key, value, ttlMs || undefined);
    },
    delete: async (key) => open().delete(key),
    async claim(key, value, ttlMs) {
      const text = JSON.stringify(value) ?? "null";
      const reply = await client.set(
        key,
        text,
        ttlMs ? { condition: "NX", expiration: { type: "PX", value: Math.ceil(ttlMs) } } : { condition: "NX" },
      );
      return reply === "OK";
    },
    async deleteIf(key, value) {
      return Number(await script(deleteIfScript, [key], [JSON.stringify(value) ?? "null"])) === 1;
    },
    async renewIf(key, value, ttlMs) {
      return Number(await script(renewIfScript, [key], [JSON.stringify(value) ?? "null", Math.ceil(ttlMs)])) === 1;
    },
    async increment(key, by = 1, ttlMs) {
      return Number(await script(incrementScript, [key], [by, Math.ceil(ttlMs ?? 0)]));
    },
    async take(key, amount) {
      const reply = await script(takeScript, [key], [amount]);
      return reply === null ? undefined : Number(reply);
    },
    async rank(set, member, by) {
      return Number(await client.zIncrBy(set, by, member));
    },
    async top(set, count) {
      if (count <= 0) return [];
      const flat = (await script(topScript, [set], [count])) as string[];
      const scores: { member: string; score: number }[] = [];
      for (let i = 0; i < flat.length; i += 2) scores.push({ member: flat[i], score: Number(flat[i + 1]) });
      return scores.sort((a, b) => b.score - a.score || a.member.localeCompare(b.member)).slice(0, count);
    },
    async keys(prefix) {
      const found: string[] = [];
      for await (const batch of scan({ MATCH: `${globEscape(prefix)}*`, TYPE: "string", COUNT: 1000 }))
        found.push(...batch);
      return [...new Set(found)];
    },
    async ping() {
      await client.ping();
    },
    reachable: () => reachable && ("isReady" in client ? client.isReady : true),
    async close() {
      closed = true;
      await close();
    },
  });
}

/** Redis failing is the service's failure, not the caller's: a 503 with Retry-After, and nothing is charged. */
function unavailableOnError<S extends object>(store: S): S {
  const wrapped = Object.entries(store).map(([name, operation]) => [
    name,
    name === "reachable"
      ? operation
      : async (...args: unknown[]) => {
          try {
            return await operation(...args);
          } catch (error) {
            if (name === "close" || error instanceof ServiceError) throw error;
            throw unavailable("The shared store is unavailable; try again shortly", 2, {
              cause: String((error as Error)?.message ?? error),
            });
          }
        },
  ]);
  return Object.fromEntries(wrapped) as S;
}

const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");
