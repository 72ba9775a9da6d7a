import { after, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { award, playerIdOf } from "../../../plugins/arcade/_points.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";

const skip = redisMissing;
const log = pino({ level: "silent" });
let redis: RedisServer | undefined;
const stores: RedisStore[] = [];
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

test("arcade points awarded through two instances at once add up, each play counted once", { skip }, async () => {
  redis = await startRedis();
  const [one, two] = await Promise.all([createRedisStore(redis.url, log), createRedisStore(redis.url, log)]);
  stores.push(one, two);
  const ada = playerIdOf("ada", "secret");
  const now = new Date("2026-11-25T12:00:00Z");
  const plays = Array.from({ length: 6 }, (_, i) => ({
    playId: `play-${i}`,
    playerId: ada,
    alias: "ada",
    outcome: "win" as const,
  }));
  const results = await Promise.all(
    [...plays, plays[0], plays[1]].map((play, i) => award(i % 2 ? two : one, play, now)),
  );
  assert.equal(results.filter((r) => r === undefined).length, 2, "the repeated plays are not counted again");
  // Wins 1 and 2 earn 10, from the third in a row 20: 100 whatever the order the instances took them in.
  assert.equal(await one.get(`arcade:points:${ada}`), 100);
  assert.deepEqual(await two.top("arcade:board:all", 1), [{ member: ada, score: 100 }]);
  assert.equal((await one.get<{ wins: number }>(`arcade:player:${ada}`))?.wins, 6);
});
