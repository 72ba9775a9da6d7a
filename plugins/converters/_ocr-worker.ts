import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Worker as ThreadWorker } from "node:worker_threads";
import { createWorker, OEM, type RecognizeResult, type Worker } from "tesseract.js";

/** English LSTM data from the installed @tesseract.js-data/eng package: nothing is downloaded. */
const langPath = join(dirname(createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int");

/**
 * One tesseract worker, created on first use and reused by every call. Its thread holds the event loop
 * only while a recognition is running, so an idle worker never keeps the process (or a test run) alive.
 */
let worker: Promise<Worker> | undefined;
let running = 0;

function start(): Promise<Worker> {
  const created = createWorker("eng", OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: "none",
    // Without a handler tesseract.js rethrows a failed job on a bare tick, which would crash the process.
    errorHandler: () => {},
  });
  created.catch(() => {
    if (worker === created) worker = undefined;
  });
  return created;
}

const threadOf = (w: Worker) => (w as Worker & { worker: ThreadWorker }).worker;

export async function recognize(image: Buffer): Promise<RecognizeResult> {
  running++;
  try {
    const w = await (worker ??= start());
    threadOf(w).ref();
    return await w.recognize(image, {}, { text: true, blocks: true });
  } finally {
    running--;
    worker?.then((w) => running === 0 && threadOf(w).unref(), () => {});
  }
}

/** Terminates the worker; the next call starts a new one. */
export async function closeOcrWorker(): Promise<void> {
  const current = worker;
  worker = undefined;
  const w = await current?.catch(() => undefined);
  await w?.terminate();
}
