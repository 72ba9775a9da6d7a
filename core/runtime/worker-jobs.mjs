// The worker side of core/runtime/worker-pool.ts, in plain JavaScript because worker threads do not get the
// tsx loader. `serveJobs(run)` answers each job with run's result, or with the error's `kind` (a RangeError is
// "too-deep": a library that recurses overflowed its stack) and message.
import { parentPort } from "node:worker_threads";

export class JobError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

export function serveJobs(run) {
  parentPort.on("message", async (job) => {
    try {
      parentPort.postMessage({ ok: true, result: await run(job) });
    } catch (error) {
      const kind = error instanceof JobError ? error.kind : error instanceof RangeError ? "too-deep" : "failed";
      parentPort.postMessage({ ok: false, kind, message: String(error?.message ?? error) });
    }
  });
  // Loading the libraries can take a while on a busy machine: the job's deadline starts once this is said.
  parentPort.postMessage({ ready: true });
}

/**
 * How deeply the elements of an HTML text nest, counted from its tags without building a tree (linear, no
 * recursion), stopping once past `limit`. Void and self-closed elements do not nest.
 */
export function htmlDepthOver(html, limit) {
  const tag = /<(\/?)([a-zA-Z][\w:-]*)[^<>]*?(\/?)>/g;
  const voids = new Set([
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
    "p",
    "li",
    "td",
    "th",
    "tr",
    "option",
    "dt",
    "dd",
  ]);
  let depth = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const name = m[2].toLowerCase();
    if (voids.has(name) || m[3]) continue;
    depth += m[1] ? -1 : 1;
    if (depth < 0) depth = 0;
    if (depth > limit) return true;
  }
  return false;
}
