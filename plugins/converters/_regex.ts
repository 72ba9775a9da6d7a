import { createWorkerPool, WorkerJobFailed, WorkerOverBudget } from "../../core/runtime/worker-pool.ts";

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

const pool = createWorkerPool({ file: new URL("./_regex-worker.mjs", import.meta.url), memoryMb: 128, maxRunning: 4 });

/**
 * Runs a caller's regular expression off the main thread. A run that exceeds `timeoutMs` (catastrophic
 * backtracking) or its memory limit kills its worker, so the server never hangs on a pattern.
 */
export async function runRegex<T>(job: RegexJob, timeoutMs: number, signal: AbortSignal): Promise<T> {
  try {
    return await pool.run<T>(job, { timeoutMs, signal });
  } catch (error) {
    if (error instanceof WorkerOverBudget && error.budget === "time")
      throw new RegexTimeout(`The pattern ran longer than ${timeoutMs} ms`);
    if (error instanceof WorkerOverBudget) throw new RegexFailed(`The pattern could not run: ${error.message}`);
    if (error instanceof WorkerJobFailed) throw new RegexFailed(error.message);
    throw error;
  }
}
