import type { MaybePromise } from "./maybe.ts";

/** The calls running right now, so a shutdown can let them finish (design: graceful shutdown). */
export interface Inflight {
  /** True once a shutdown began: new calls are refused with a 503, running ones go on. */
  readonly draining: boolean;
  readonly size: number;
  /** Counts a call until it settles; a call answered at once (a value, not a promise) was never running. */
  track<T>(call: MaybePromise<T>): MaybePromise<T>;
  /** Starts draining and resolves when every running call has finished or `timeoutMs` passed; how many were left. */
  drain(timeoutMs: number): Promise<number>;
}

/** A count, not a set of promises: tracking is on every call's path, and the drain only needs to know when it reaches zero. */
export function createInflight(): Inflight {
  let size = 0;
  let draining = false;
  let idle: (() => void) | undefined;
  const done = () => {
    if (--size === 0) idle?.();
  };
  return {
    get draining() {
      return draining;
    },
    get size() {
      return size;
    },
    track(call) {
      if (!(call instanceof Promise)) return call;
      size++;
      call.then(done, done);
      return call;
    },
    async drain(timeoutMs) {
      draining = true;
      let timer: NodeJS.Timeout | undefined;
      const finished = new Promise<void>((resolve) => {
        idle = resolve;
        if (size === 0) resolve();
      });
      await Promise.race([finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      return size;
    },
  };
}
