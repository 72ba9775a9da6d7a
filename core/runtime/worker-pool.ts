import { once } from "node:events";
import { basename } from "node:path";
import { Worker } from "node:worker_threads";
import { ServiceError } from "./errors.ts";
import { metrics } from "./prometheus.ts";

export interface WorkerPoolOptions {
  /**
   * The worker module, plain JavaScript (worker threads do not get the tsx loader), serving jobs with
   * `serveJobs` from core/runtime/worker-jobs.mjs.
   */
  file: URL;
  /** Heap of one worker; a job that needs more kills its worker and fails with WorkerOverBudget. */
  memoryMb: number;
  /** Workers kept warm between jobs. */
  keepIdle?: number;
  /** Jobs running at once; more wait for a worker (their caller's signal still applies). */
  maxRunning?: number;
}

/** A job that ran past its deadline or its memory: its worker was terminated. */
export class WorkerOverBudget extends Error {
  constructor(
    readonly budget: "time" | "memory",
    message: string,
  ) {
    super(message);
  }
}

/** The job's own failure, as the worker reported it: `kind` is the worker's name for it ("too-deep", ...). */
export class WorkerJobFailed extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

interface Reply {
  ok: boolean;
  result?: unknown;
  kind?: string;
  message?: string;
}

/**
 * Runs heavy or hostile work (parsers, renderers, a caller's regular expression) off the event loop. Each job
 * has a deadline and each worker a heap limit; a job past either has its worker terminated, so nothing a
 * caller sends can hold the other callers. A worker that finished a job cleanly is reused.
 */
export function createWorkerPool({ file, memoryMb, keepIdle = 2, maxRunning = 2 }: WorkerPoolOptions) {
  const idle: Worker[] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  const pool = { pool: basename(file.pathname).replace(/\.m?js$/, "") };
  metrics.workerQueue.set(pool, 0);
  for (const budget of ["time", "memory"]) metrics.workerTimeouts.inc({ ...pool, budget }, 0);

  async function slot(signal: AbortSignal): Promise<void> {
    while (running >= maxRunning) {
      let wake = () => {};
      const turn = new Promise<void>((resolve) => waiting.push((wake = resolve)));
      const onAbort = () => wake();
      signal.addEventListener("abort", onAbort, { once: true });
      metrics.workerQueue.inc(pool);
      await turn;
      metrics.workerQueue.dec(pool);
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) {
        const at = waiting.indexOf(wake);
        if (at >= 0) waiting.splice(at, 1);
        else waiting.shift()?.();
        signal.throwIfAborted();
      }
    }
    running++;
  }

  /** A worker that has loaded its libraries (it says so), so a job's deadline measures the job only. */
  async function spawn(signal: AbortSignal): Promise<Worker> {
    const worker = new Worker(file, {
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(32, memoryMb / 4) },
    });
    worker.unref();
    try {
      await once(worker, "message", { signal });
      return worker;
    } catch (error) {
      void worker.terminate();
      throw error;
    }
  }

  function ask(worker: Worker, job: unknown, timeoutMs: number, signal: AbortSignal): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const settle = (done: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        done();
      };
      const timer = setTimeout(
        () => settle(() => reject(new WorkerOverBudget("time", `the work took longer than ${timeoutMs} ms`))),
        timeoutMs,
      );
      const onAbort = () => settle(() => reject(signal.reason));
      const onMessage = (reply: Reply) => settle(() => resolve(reply));
      const onError = (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            error.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? new WorkerOverBudget("memory", `the work needed more than ${memoryMb} MB`)
              : error,
          ),
        );
      const onExit = () => settle(() => reject(new Error("the worker stopped")));
      signal.addEventListener("abort", onAbort, { once: true });
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      worker.postMessage(job);
    });
  }

  return {
    async run<T>(job: unknown, { timeoutMs, signal }: { timeoutMs: number; signal: AbortSignal }): Promise<T> {
      signal.throwIfAborted();
      await slot(signal);
      let worker: Worker | undefined;
      let clean = false;
      try {
        worker = idle.pop() ?? (await spawn(signal));
        const reply = await ask(worker, job, timeoutMs, signal);
        clean = true;
        if (reply.ok) return reply.result as T;
        throw new WorkerJobFailed(reply.kind ?? "failed", reply.message ?? "the work failed");
      } catch (error) {
        if (error instanceof WorkerOverBudget) metrics.workerTimeouts.inc({ ...pool, budget: error.budget });
        throw error;
      } finally {
        running--;
        if (clean && worker && idle.length < keepIdle) idle.push(worker);
        else void worker?.terminate();
        waiting.shift()?.();
      }
    },
  };
}

/**
 * A job over its budget or refused by its worker, as the caller's 422 `too_complex` naming the input field
 * (the input is what made the work too big: it is not charged); any other error as it was.
 */
export function refusedWork(error: unknown, field: string, what: string): unknown {
  if (!(error instanceof WorkerOverBudget) && !(error instanceof WorkerJobFailed)) return error;
  const message =
    error instanceof WorkerOverBudget
      ? `${what} ${error.message.replace(/^the work /, "")}`
      : error.kind === "failed"
        ? `${what} could not be processed: ${error.message}`
        : error.message;
  return new ServiceError(422, "too_complex", message, { issues: [{ field, message }] });
}
