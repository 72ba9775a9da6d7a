import type { Store } from "../endpoint.ts";
import { tooManyRequests } from "./errors.ts";

export interface RateLimiter {
  /** Counts one request for `id` and throws 429 with Retry-After once the minute's budget is spent. */
  hit(id: string): Promise<void>;
}

/** A fixed one-minute window per client, counted in the store so every instance shares it. */
export function createRateLimiter(store: Store, perMinute: number, now: () => number = Date.now): RateLimiter {
  return {
    async hit(id) {
      if (perMinute === 0) return;
      const t = now();
      const window = Math.floor(t / 60_000);
      const count = await store.increment(`rl:${id}:${window}`, 1, 61_000);
      if (count > perMinute) throw tooManyRequests(Math.ceil(((window + 1) * 60_000 - t) / 1000));
    },
  };
}
