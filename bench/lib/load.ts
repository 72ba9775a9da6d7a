import autocannon, { type Result } from "autocannon";

/** One measured load run, as it goes into RESULTS.md. */
export interface LoadRow {
  target: string;
  connections: number;
  /** "duration" runs report autocannon's per-second average; "amount" runs report completed / elapsed. */
  mode: "duration" | "amount";
  completed: number;
  elapsedS: number;
  reqPerSec: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  expectedStatus: number;
  /** Answers whose status was not the expected one (errors and timeouts not included). */
  unexpected: number;
  /** Set when an amount run hit its time cap before all its requests were answered. */
  stoppedAtCapS?: number;
  statusCodes: Record<string, number>;
}

export const LOAD_DEFAULTS = { connections: 50, pipelining: 1, durationS: 10, warmupS: 2 };

export interface DurationRun {
  target: string;
  url: string;
  expectedStatus: number;
  connections?: number;
  durationS?: number;
  warmupS?: number;
}

/** A time-bounded run after a warm-up of the same shape (the warm-up is not reported). */
export async function measureForDuration(run: DurationRun): Promise<LoadRow> {
  const connections = run.connections ?? LOAD_DEFAULTS.connections;
  const base = { url: run.url, connections, pipelining: LOAD_DEFAULTS.pipelining };
  await autocannon({ ...base, duration: run.warmupS ?? LOAD_DEFAULTS.warmupS });
  const started = performance.now();
  const result = await autocannon({ ...base, duration: run.durationS ?? LOAD_DEFAULTS.durationS });
  return toRow(run.target, connections, "duration", result, (performance.now() - started) / 1000, run.expectedStatus);
}

export interface AmountRun {
  target: string;
  url: string;
  connections: number;
  expectedStatus: number;
  amount: number;
  /** Hard cap on the run's duration: it is stopped there and reports what completed. */
  maxSeconds: number;
  /** One header set per request, each used once; at least amount + spareHeaders(connections). */
  headers: Array<Record<string, string>>;
  /** Sees each answer's status and headers (a paid answer's PAYMENT-RESPONSE names its transaction). */
  onResponse?: (status: number, headers: Record<string, string>) => void;
}

/**
 * A run of `amount` requests, each with its own headers (fresh payments). autocannon only notices the end
 * of an amount run on its next one-second tick, so the elapsed time runs to the last response instead.
 */
export async function measureForAmount(run: AmountRun): Promise<LoadRow> {
  const { pathname, search } = new URL(run.url);
  const amount = run.amount;
  if (run.headers.length < amount + spareHeaders(run.connections))
    throw new Error(`${run.target}: sign at least ${amount + spareHeaders(run.connections)} payments`);
  let next = 0;
  // autocannon builds each connection's next request ahead of time, so a few more than `amount` are prepared.
  const nextHeaders = () => run.headers[Math.min(next++, run.headers.length - 1)];
  let lastResponseAt = 0;
  // autocannon 9 hands over the answer's headers too (its types name only the first two arguments).
  const onResponse = (status: number, _body: string, _context: unknown, headers: Record<string, string>) => {
    lastResponseAt = performance.now();
    run.onResponse?.(status, headers);
  };
  const started = performance.now();
  const tracker = autocannon({
    url: run.url,
    connections: run.connections,
    pipelining: LOAD_DEFAULTS.pipelining,
    amount,
    timeout: 30,
    requests: [
      {
        method: "GET",
        path: pathname + search,
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...nextHeaders() } }),
        onResponse: onResponse as (status: number, body: string) => void,
      },
    ],
  });
  let capped = false;
  const cap = setTimeout(() => {
    capped = true;
    tracker.stop();
  }, run.maxSeconds * 1000);
  const result = await tracker;
  clearTimeout(cap);
  const elapsedS = ((lastResponseAt || performance.now()) - started) / 1000;
  const row = toRow(run.target, run.connections, "amount", result, elapsedS, run.expectedStatus);
  return capped ? { ...row, stoppedAtCapS: run.maxSeconds } : row;
}

/** Headers to sign beyond `amount`: requests autocannon prepares but never sends. */
export const spareHeaders = (connections: number) => connections * 2 + 10;

function toRow(
  target: string,
  connections: number,
  mode: LoadRow["mode"],
  r: Result,
  elapsedS: number,
  expectedStatus: number,
): LoadRow {
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
  const answered = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const completed = r.latency.totalCount ?? answered;
  return {
    target,
    connections,
    mode,
    completed,
    elapsedS,
    reqPerSec: mode === "duration" ? r.requests.average : completed / elapsedS,
    p50: r.latency.p50,
    p975: r.latency.p97_5,
    p99: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    expectedStatus,
    unexpected: answered - (statusCodes[String(expectedStatus)] ?? 0),
    statusCodes,
  };
}
