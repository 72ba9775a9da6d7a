import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Worker as ThreadWorker } from "node:worker_threads";
import type { RecognizeResult, Worker } from "tesseract.js";
import { WorkerOverBudget } from "../../core/runtime/worker-pool.ts";
import { lazy } from "../../core/shared.ts";

/** tesseract.js (about 25 modules), loaded when the first worker starts rather than at boot. */
const tesseract = lazy(() => import("tesseract.js"));

/** English LSTM data from the installed @tesseract.js-data/eng package: nothing is downloaded. */
const langPath = join(
  dirname(createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json")),
  "4.0.0_best_int",
);

/**
 * One tesseract worker, created on first use and reused by every call. Its thread holds the event loop
 * only while a recognition is running, so an idle worker never keeps the process (or a test run) alive.
 */
let worker: Promise<Worker> | undefined;
let running = 0;

function start(): Promise<Worker> {
  const created = tesseract().then(({ createWorker, OEM }) =>
    createWorker("eng", OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: "none",
      // Without a handler tesseract.js rethrows a failed job on a bare tick, which would crash the process.
      errorHandler: () => {},
    }),
  );
  created.catch(() => {
    if (worker === created) worker = undefined;
  });
  return created;
}

const threadOf = (w: Worker) => (w as Worker & { worker: ThreadWorker }).worker;

/**
 * Recognizes on the tesseract worker's thread. A job past `timeoutMs`, or whose call ended, terminates that
 * worker (the next call starts a new one), so a hostile image cannot keep OCR busy for everyone after it.
 * Memory is bounded by the input: at most 4096 pixels a side (ocr.ts).
 */
export async function recognize(image: Buffer, timeoutMs: number, signal: AbortSignal): Promise<RecognizeResult> {
  signal.throwIfAborted();
  running++;
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  const timer = setTimeout(
    () => stop.abort(new WorkerOverBudget("time", `the work took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const current = (worker ??= start());
    const w = await current;
    threadOf(w).ref();
    const stopped = new Promise<never>((_, reject) =>
      stop.signal.addEventListener(
        "abort",
        () => {
          if (worker === current) closeOcrWorker().catch(() => {});
          reject(stop.signal.reason);
        },
        { once: true },
      ),
    );
    const job = w.recognize(image, {}, { text: true, blocks: true });
    // A job on a terminated worker fails after the race is decided; that failure is expected, not a crash.
    job.catch(() => {});
    return await Promise.race([job, stopped]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    running--;
    worker?.then(
      (w) => running === 0 && threadOf(w).unref(),
      () => {},
    );
  }
}

/** Terminates the worker; the next call starts a new one. */
export async function closeOcrWorker(): Promise<void> {
  const current = worker;
  worker = undefined;
  const w = await current?.catch(() => undefined);
  await w?.terminate();
}
