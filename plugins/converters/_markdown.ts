import { fieldError } from "../../core/runtime/errors.ts";
import { createWorkerPool, WorkerJobFailed, WorkerOverBudget } from "../../core/runtime/worker-pool.ts";

export interface MarkdownJob {
  markdown: string;
  gfm: boolean;
  breaks: boolean;
  /** Sanitized HTML, or plain text. */
  output: "html" | "text";
  keepLinks?: boolean;
}

/** A normal document renders in well under this; crafted emphasis runs can take minutes. */
const RENDER_TIMEOUT_MS = 2000;
const pool = createWorkerPool({
  file: new URL("./_markdown-worker.mjs", import.meta.url),
  memoryMb: 256,
  maxRunning: 4,
});

const refuse = (message: string) => fieldError("markdown", message);

/** Renders in a worker thread with a deadline, so no Markdown can stall the server. */
export async function renderMarkdown(job: MarkdownJob, signal: AbortSignal): Promise<string> {
  try {
    return await pool.run<string>(job, { timeoutMs: RENDER_TIMEOUT_MS, signal });
  } catch (error) {
    if (error instanceof WorkerOverBudget && error.budget === "time") {
      throw refuse(`The Markdown took longer than ${RENDER_TIMEOUT_MS} ms to render; simplify its emphasis or nesting`);
    }
    if (error instanceof WorkerOverBudget || (error instanceof WorkerJobFailed && error.kind === "too-deep"))
      throw refuse((error as Error).message);
    if (error instanceof WorkerJobFailed) throw new Error(`Markdown rendering failed: ${error.message}`);
    throw error;
  }
}
