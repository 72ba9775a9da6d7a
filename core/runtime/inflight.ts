/** The calls running right now, so a shutdown can let them finish (design: graceful shutdown). */
export interface Inflight {
  /** True once a shutdown began: new calls are refused with a 503, running ones go on. */
  readonly draining: boolean;
  readonly size: number;
  track<T>(work: () => Promise<T>): Promise<T>;
  /** Starts draining and resolves when every running call has finished or `timeoutMs` passed; how many were left. */
  drain(timeoutMs: number): Promise<number>;
}

export function createInflight(): Inflight {
  const running = new Set<Promise<unknown>>();
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    get size() {
      return running.size;
    },
    track(work) {
      const call = work();
      running.add(call);
      call.then(() => running.delete(call), () => running.delete(call));
      return call;
    },
    async drain(timeoutMs) {
      draining = true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
      return running.size;
    },
  };
}
