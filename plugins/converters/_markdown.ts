import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { fieldError } from "../../core/runtime/errors.ts";

export interface MarkdownJob {
  markdown: string;
  gfm: boolean;
  breaks: boolean;
  /** Sanitized HTML, or plain text. */
  output: "html" | "text";
  keepLinks?: boolean;
}

interface Reply {
  ok: boolean;
  result?: string;
  tooDeep?: boolean;
  message?: string;
}

/** A normal document renders in well under this; crafted emphasis runs can take minutes. */
const RENDER_TIMEOUT_MS = 2000;
const KEEP_IDLE = 2;
const MAX_RUNNING = 4;
const workerFile = new URL("./_markdown-worker.mjs", import.meta.url);
const idle: Worker[] = [];
const waiting: (() => void)[] = [];
let running = 0;

const refuse = (message: string) => fieldError("markdown", message);

/** Renders in a worker thread with a deadline, so no Markdown can stall the server. */
export async function renderMarkdown(job: MarkdownJob, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  while (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  let healthy = false;
  let worker: Worker | undefined;
  try {
    worker = idle.pop() ?? (await spawn(signal));
    const reply = await ask(worker, job, signal);
    healthy = true;
    if (reply.ok) return reply.result!;
    if (reply.tooDeep) throw refuse(reply.message!);
    throw new Error(`Markdown rendering failed: ${reply.message}`);
  } finally {
    running--;
    if (healthy && worker && idle.length < KEEP_IDLE) idle.push(worker);
    else void worker?.terminate();
    waiting.shift()?.();
  }
}

/** A worker that has loaded its libraries (it says so), so a render's deadline measures rendering only. */
async function spawn(signal: AbortSignal): Promise<Worker> {
  const worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: 256 } });
  worker.unref();
  try {
    await once(worker, "message", { signal });
    return worker;
  } catch (error) {
    void worker.terminate();
    throw error;
  }
}

function ask(worker: Worker, job: MarkdownJob, signal: AbortSignal): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const settle = (done: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      done();
    };
    const timer = setTimeout(
      () => settle(() => reject(refuse(`The Markdown took longer than ${RENDER_TIMEOUT_MS} ms to render; simplify its emphasis or nesting`))),
      RENDER_TIMEOUT_MS,
    );
    const onAbort = () => settle(() => reject(signal.reason));
    const onMessage = (reply: Reply) => settle(() => resolve(reply));
    const onError = (error: Error) => settle(() => reject(new Error(`Markdown worker failed: ${error.message}`)));
    const onExit = () => settle(() => reject(new Error("Markdown worker stopped")));
    signal.addEventListener("abort", onAbort, { once: true });
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage(job);
  });
}
