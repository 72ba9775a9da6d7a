import type { Store } from "../endpoint.ts";
import { tooManyRequests } from "./errors.ts";
import type { MaybePromise } from "./maybe.ts";

export interface RateLimiter {
  /** Counts one request for `id` and rejects with 429 and Retry-After once the minute's budget is spent; nothing to wait for when limits are off. */
  hit(id: string): MaybePromise<void>;
}

/** A fixed one-minute window per client, counted in the store so every instance shares it. */
export function createRateLimiter(store: Store, perMinute: number, now: () => number = Date.now): RateLimiter {
  async function count(id: string) {
    const t = now();
    const window = Math.floor(t / 60_000);
    const requests = await store.increment(`rl:${id}:${window}`, 1, 61_000);
    if (requests > perMinute) throw tooManyRequests(Math.ceil(((window + 1) * 60_000 - t) / 1000));
  }
  return { hit: (id) => (perMinute === 0 ? undefined : count(id)) };
}
