import { Worker } from "node:worker_threads";
import { regexWorkerSource } from "./_regex-worker.ts";

export interface RegexJob {
  pattern: string;
  flags: string;
  text: string;
  op: "test" | "match" | "replace" | "split";
  replacement: string;
  limit: number;
}

export class RegexTimeout extends Error {}
export class RegexFailed extends Error {}

/** Workers kept warm between calls, and the most that may run at once (more calls wait their turn). */
const KEEP_IDLE = 2;
const MAX_RUNNING = 4;
const idle: Worker[] = [];
let running = 0;
const waiting: (() => void)[] = [];

function spawn(): Worker {
  const worker = new Worker(regexWorkerSource, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  });
  worker.unref();
  return worker;
}

async function slot(signal: AbortSignal): Promise<void> {
  while (running >= MAX_RUNNING) {
    await new Promise<void>((resolve) => waiting.push(resolve));
    if (signal.aborted) {
      waiting.shift()?.();
      signal.throwIfAborted();
    }
  }
  running++;
}

function release(worker: Worker | undefined) {
  running--;
  if (worker && idle.length < KEEP_IDLE) idle.push(worker);
  else void worker?.terminate();
  waiting.shift()?.();
}

/**
 * Runs a caller's regular expression off the main thread. A run that exceeds `timeoutMs` (catastrophic
 * backtracking) or its memory limit kills its worker, so the server never hangs on a pattern.
 */
export async function runRegex<T>(job: RegexJob, timeoutMs: number, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  await slot(signal);
  const worker = idle.pop() ?? spawn();
  let reusable = false;
  try {
    const result = await new Promise<T>((resolve, reject) => {
      const stop = (error: Error) => {
        cleanup();
        reject(error);
      };
      const timer = setTimeout(() => stop(new RegexTimeout(`The pattern ran longer than ${timeoutMs} ms`)), timeoutMs);
      const onAbort = () => stop(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      const onError = (error: Error) => stop(new RegexFailed(`The pattern could not run: ${error.message}`));
      const onExit = () => stop(new RegexFailed("The pattern could not run: its worker stopped"));
      const onMessage = (reply: { ok: boolean; result?: T; message?: string }) => {
        cleanup();
        reusable = true;
        if (reply.ok) resolve(reply.result as T);
        else reject(new RegexFailed(reply.message));
      };
      function cleanup() {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      }
      signal.addEventListener("abort", onAbort, { once: true });
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      worker.postMessage(job);
    });
    return result;
  } finally {
    if (!reusable) void worker.terminate();
    release(reusable ? worker : undefined);
  }
}
