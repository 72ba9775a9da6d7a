import type { JobContext, JobDef } from "../endpoint.ts";
import type { Runtime } from "./container.ts";
import { creditIssuer } from "./invoke.ts";

export interface Jobs {
  /** Runs the job's current tick unless an instance already has (a claim in the shared store); true when this call ran it. */
  run(name: string): Promise<boolean>;
  /** Ticks every job on its interval, the first tick right away (work left pending by a restart). */
  start(): void;
  /** Stops the timers and waits for running ticks, which see their signal aborted. */
  stop(): Promise<void>;
}

/**
 * Background jobs of the plugins. A tick is the clock divided by the job's interval; one claim per tick
 * in the shared store makes it run once across instances. A job works idempotently per item, so a tick
 * lost to a crash is made good by the next one.
 */
export function createJobs(rt: Runtime, defs: (JobDef & { family?: string })[]): Jobs {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const stopping = new AbortController();

  const contextOf = (job: JobDef & { family?: string }): JobContext => ({
    settings: job.family ? rt.families.get(job.family)?.settings : undefined,
    credits: creditIssuer(rt),
    store: rt.store,
    log: rt.log.child({ job: job.name }),
    signal: stopping.signal,
    now: rt.now,
    egress: {
      fetch: (url, init) => rt.egress.fetch(url, { ...init, signal: stopping.signal }),
      check: (url) => rt.egress.check(url, stopping.signal),
    },
    upstream(name) {
      const family = job.family ? rt.families.get(job.family) : undefined;
      if (!job.upstreams?.includes(name) || !family)
        throw new Error(`job ${job.name} calls undeclared upstream ${name}`);
      return family.upstream(name, { signal: stopping.signal });
    },
  });

  async function run(name: string): Promise<boolean> {
    const job = defs.find((j) => j.name === name);
    if (!job) throw new Error(`No job named ${name}`);
    const tick = Math.floor(rt.now().getTime() / job.everyMs);
    if (!(await rt.store.claim(`job:${name}:${tick}`, rt.now().toISOString(), job.everyMs * 2))) return false;
    const work = job.run(contextOf(job)).catch((err) => rt.log.error({ err, job: name }, "job tick failed"));
    running.add(work);
    await work.finally(() => running.delete(work));
    return true;
  }

  const tick = (name: string) => {
    if (!stopping.signal.aborted) run(name).catch((err) => rt.log.error({ err, job: name }, "job tick failed"));
  };

  return {
    run,
    start() {
      for (const job of defs) {
        setImmediate(tick, job.name);
        timers.push(setInterval(tick, job.everyMs, job.name).unref());
      }
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      stopping.abort(new DOMException("service stopping", "AbortError"));
      await Promise.allSettled([...running]);
    },
  };
}
