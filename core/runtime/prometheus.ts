import { createServer, type Server } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { H3 } from "h3";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { Endpoint } from "../endpoint.ts";
import type { Discovery } from "../payment/discovery.ts";
import type { BreakerState } from "./breaker.ts";

/**
 * What this instance counts for an operator's Prometheus: every instance counts its own, and Prometheus sums them
 * (nothing here is read from the shared store). Amounts are USDC atomic units (six decimals), as prices are.
 */
export const registry = new Registry();

const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Counter<L>({ name, help, labelNames, registers: [registry] });
/**
 * Cells of a metric, one per label set, found through one Map per label, in order: a hit builds no key.
 */
function labelledCells<L extends string, Cell>(
  labelNames: readonly L[],
  made: (labels: Record<L, string | number>) => Cell,
) {
  const root = new Map<unknown, unknown>();
  const cells: Cell[] = [];
  return {
    cells,
    cellOf(labels: Record<L, string | number>): Cell {
      let level = root;
      for (let i = 0; i < labelNames.length - 1; i++) {
        let next = level.get(labels[labelNames[i]]) as Map<unknown, unknown> | undefined;
        if (!next) level.set(labels[labelNames[i]], (next = new Map()));
        level = next;
      }
      const last = labels[labelNames[labelNames.length - 1]];
      let cell = level.get(last) as Cell | undefined;
      if (!cell) {
        cell = made({ ...labels });
        level.set(last, cell);
        cells.push(cell);
      }
      return cell;
    },
  };
}

/**
 * A counter bumped on every request (or every paid call): counted in a plain number per label set and handed to
 * prom-client when scraped, because prom-client hashes, sorts and checks the labels on every `inc` (about 4 µs of
 * the 402 path's answer, bench/findings.md).
 */
function tally<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const { cells, cellOf } = labelledCells(labelNames, (labels) => ({ labels, value: 0 }));
  new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const cell of cells) this.inc(cell.labels, cell.value);
    },
  });
  return {
    inc(labels: Record<L, string | number>, value = 1) {
      cellOf(labels).value += value;
    },
  };
}

/**
 * A histogram observed on every paid call, tallied the same way: its cells are read by the registry as prom-client's
 * own histogram shows them (`_bucket` per bound and `+Inf`, `_sum`, `_count`), whose `observe` hashes and checks the
 * labels every time (9 µs of a voucher in its profile).
 */
function tallyHistogram<L extends string>(name: string, help: string, labelNames: readonly L[], bounds: number[]) {
  const { cells, cellOf } = labelledCells(labelNames, (labels) => ({
    labels,
    perBound: bounds.map(() => 0),
    sum: 0,
    count: 0,
  }));
  const values = () =>
    cells.flatMap(({ labels, perBound, sum, count }) => {
      let below = 0;
      return [
        ...bounds.map((le, i) => ({
          labels: { ...labels, le },
          value: (below += perBound[i]),
          metricName: `${name}_bucket`,
        })),
        { labels: { ...labels, le: "+Inf" }, value: count, metricName: `${name}_bucket` },
        { labels, value: sum, metricName: `${name}_sum` },
        { labels, value: count, metricName: `${name}_count` },
      ];
    });
  const metric = { name, help, type: "histogram", aggregator: "sum" } as const;
  // A registry asks its metrics for `get`, and for `reset`, which a tally ignores as the tallied counters do.
  registry.registerMetric({ ...metric, get: async () => ({ ...metric, values: values() }), reset() {} } as never);
  return {
    observe(labels: Record<L, string | number>, value: number) {
      const cell = cellOf(labels);
      const i = bounds.findIndex((le) => value <= le);
      if (i >= 0) cell.perBound[i]++;
      cell.sum += value;
      cell.count++;
    },
    /** The label set's series, shown at zero until it is first observed. */
    zero(labels: Record<L, string | number>) {
      cellOf(labels);
    },
  };
}

const gauge = <L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  collect?: (this: Gauge<L>) => void | Promise<void>,
) => new Gauge<L>({ name, help, labelNames, registers: [registry], collect });

/** The outcomes a payment ends in (`x402_payments_total`). */
export const paymentOutcomes = [
  /** Settled on-chain, a voucher accepted, or a credit spent: the answer went out. */
  "paid",
  /** Paid, but the call's changes could not be saved: the price was credited. */
  "credited",
  /** A retry with its payment identifier: the settled answer sent again, nothing charged twice. */
  "replayed",
  /** Refused before anything ran (a bad signature, other terms, no funds, an unknown credit). */
  "refused",
  /** Already used by another call. */
  "duplicate",
  /** The handler failed: nothing was charged. */
  "handler_failed",
  /** The handler answered but the settlement failed: nothing was charged and the answer withheld. */
  "settlement_failed",
  /** The settlement did not finish in time: queued for reconciliation. */
  "pending",
  /** A voucher channel's cooperative refund: nothing ran, the unclaimed deposit went back. */
  "refund",
  /** Something broke on our side (the store, a payer rate limit). */
  "error",
] as const;
export type PaymentOutcome = (typeof paymentOutcomes)[number];

export const upstreamOutcomes = [
  "ok",
  "client_error",
  "rate_limited",
  "server_error",
  "unreachable",
  "timeout",
  "too-large",
  "undecodable",
  "redirect-refused",
  "aborted",
] as const;

/** What the metrics read of the runtime (not the container itself, which builds on the payment code that counts here). */
interface Runtime {
  endpoints: Endpoint[];
  payments: { options: readonly { network: string }[]; discovery: Pick<Discovery, "metrics"> };
  upstreams: { breakerState(name: string): BreakerState };
  config: { metrics: { token?: string } };
}

let runtime: Runtime | undefined;
/** Balances read on scrape, each at most every 15 s, so a scrape waits on a slow RPC at most once in that time. */
const wallets = new Map<
  string,
  {
    labels: { role: string; network: string; address: string };
    read: () => Promise<number>;
    value?: number;
    at: number;
  }
>();

const seconds = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const metrics = {
  requests: tally("http_requests_total", "HTTP requests answered, by route pattern and status", ["route", "status"]),
  challenges: tally("x402_402_responses_total", "402 answers (challenges and refused payments), by route", ["route"]),
  payments: tally(
    "x402_payments_total",
    "Payments presented, by protocol (x402v2, x402v1, credit), scheme, network and outcome",
    ["protocol", "scheme", "network", "outcome"],
  ),
  revenue: tally(
    "x402_revenue_atomic_total",
    "USDC atomic units charged by settled payments and accepted vouchers (credits spent are not counted again)",
    ["route", "network"],
  ),
  settlementSeconds: tallyHistogram(
    "x402_settlement_duration_seconds",
    "From the handler's answer to the payment's settlement (a voucher's acceptance), by scheme, network and outcome",
    ["scheme", "network", "outcome"],
    seconds,
  ),
  settlementsPending: counter(
    "x402_settlements_pending_total",
    "Settlements that did not finish in time and were queued for reconciliation",
    ["network"],
  ),
  settlementsReconciled: counter(
    "x402_settlements_reconciled_total",
    "Queued settlements this instance reconciled: credited (the money moved) or dropped (it never will)",
    ["network", "result"],
  ),
  creditCodes: counter("x402_credit_codes_issued_total", "Credit codes issued"),
  creditsIssued: counter("x402_credits_issued_atomic_total", "USDC atomic units put on credit codes"),
  creditsSpent: counter("x402_credits_spent_atomic_total", "USDC atomic units spent from credit codes"),
  vouchersAccepted: tally("x402_vouchers_accepted_total", "batch-settlement vouchers accepted", ["network"]),
  vouchersClaimed: counter("x402_vouchers_claimed_total", "batch-settlement vouchers claimed on-chain", ["network"]),
  walletBalance: gauge(
    "x402_wallet_balance",
    "Native balance (ETH, SOL) of a wallet that pays the settlements' fees, read on scrape (cached 15 s)",
    ["role", "network", "address"],
    readBalances,
  ),
  upstreamRequests: counter("upstream_requests_total", "Exchanges with an upstream (after retries), by outcome", [
    "upstream",
    "outcome",
  ]),
  upstreamErrors: counter("upstream_errors_total", "Exchanges with an upstream that failed on its side", ["upstream"]),
  upstreamSeconds: tallyHistogram(
    "upstream_request_duration_seconds",
    "Exchange time with an upstream",
    ["upstream"],
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  ),
  breakerState: gauge(
    "upstream_breaker_state",
    "Circuit breaker of an upstream: 0 closed, 1 half-open, 2 open",
    ["upstream"],
    readBreakers,
  ),
  workerQueue: gauge("worker_pool_queued_jobs", "Jobs waiting for a worker", ["pool"]),
  workerTimeouts: counter("worker_pool_budget_exceeded_total", "Jobs stopped past their time or memory budget", [
    "pool",
    "budget",
  ]),
};

const breakerValue: Record<BreakerState, number> = { closed: 0, "half-open": 1, open: 2 };

function readBreakers(this: Gauge<"upstream">) {
  if (!runtime) return;
  const { upstreams } = runtime;
  for (const name of upstreamNames(runtime)) this.set({ upstream: name }, breakerValue[upstreams.breakerState(name)]);
}

async function readBalances(this: Gauge<"role" | "network" | "address">) {
  await Promise.all(
    [...wallets.values()].map(async (w) => {
      if (Date.now() - w.at >= 15_000) {
        w.at = Date.now();
        w.value = await w.read().catch(() => w.value);
      }
      if (w.value !== undefined) this.set(w.labels, w.value);
    }),
  );
}

/** A wallet whose native balance pays fees (a relayer, a Solana fee payer): shown as `x402_wallet_balance`. */
export function watchBalance(labels: { role: string; network: string; address: string }, read: () => Promise<number>) {
  wallets.set(`${labels.network} ${labels.address}`, { labels, read, at: 0 });
}

/** The route pattern h3 matched, or `unmatched`: a label never made of what a caller typed. */
export const routeOf = (context: { matchedRoute?: { route?: string } }) => context.matchedRoute?.route ?? "unmatched";

const upstreamNames = (rt: Runtime) =>
  new Set(rt.endpoints.flatMap((e) => [...(e.upstreams ?? []), ...(e.optionalUpstreams ?? [])]));

/**
 * Every series with the label values this service knows at boot, at zero: a rate over a series that appears
 * only at its first event misses that event, and an alert on a series that does not exist never fires.
 */
export function baselines(rt: Runtime): void {
  runtime = rt;
  const networks = rt.payments.options.map((o) => o.network);
  for (const e of rt.endpoints) {
    // Statuses as numbers, as each answer counts them: the tally keys its cells by the value itself.
    for (const status of [200, 400, 402, 500, 502, 503]) metrics.requests.inc({ route: e.path, status }, 0);
    metrics.challenges.inc({ route: e.path }, 0);
    for (const network of networks) metrics.revenue.inc({ route: e.path, network }, 0);
  }
  for (const route of ["/health", "/ready", "/status", "/status.json", "unmatched"])
    metrics.requests.inc({ route, status: 200 }, 0);
  const series = rt.payments.discovery.metrics;
  for (const kind of series.payments) {
    for (const outcome of paymentOutcomes) metrics.payments.inc({ ...kind, outcome }, 0);
    for (const outcome of ["paid", "settlement_failed", "pending"])
      metrics.settlementSeconds.zero({ scheme: kind.scheme, network: kind.network, outcome });
  }
  for (const network of networks) {
    metrics.settlementsPending.inc({ network }, 0);
    for (const result of ["credited", "dropped"]) metrics.settlementsReconciled.inc({ network, result }, 0);
  }
  for (const network of series.vouchers) {
    metrics.vouchersAccepted.inc({ network }, 0);
    metrics.vouchersClaimed.inc({ network }, 0);
  }
  for (const outcome of paymentOutcomes)
    metrics.payments.inc({ protocol: "credit", scheme: "credit", network: "none", outcome }, 0);
  for (const upstream of upstreamNames(rt)) {
    for (const outcome of upstreamOutcomes) metrics.upstreamRequests.inc({ upstream, outcome }, 0);
    metrics.upstreamErrors.inc({ upstream }, 0);
    metrics.upstreamSeconds.zero({ upstream });
  }
}

let defaultsOn = false;
/** Process figures (CPU, memory, GC, event-loop delay), sampled only once something can read them. */
function collectProcessMetrics() {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}

/** True when `authorization` carries the token (compared in constant time). */
function authorized(authorization: string | null | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(authorization?.replace(/^Bearer\s+/i, "") ?? "");
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function exposition(authorization: string | null | undefined, token: string | undefined) {
  if (!authorized(authorization, token))
    return {
      status: 401,
      headers: { "content-type": "text/plain; charset=utf-8", "www-authenticate": 'Bearer realm="metrics"' } as Record<
        string,
        string
      >,
      body: "metrics need Authorization: Bearer <METRICS_TOKEN>\n",
    };
  return {
    status: 200,
    headers: { "content-type": registry.contentType, "cache-control": "no-store" } as Record<string, string>,
    body: await registry.metrics(),
  };
}

/**
 * The service's series and their baselines; `/metrics` on the public port only behind METRICS_TOKEN (with neither
 * METRICS_TOKEN nor METRICS_PORT set, nothing is exposed there or anywhere).
 */
export function mountMetrics(app: H3, rt: Runtime): void {
  baselines(rt);
  const { token } = rt.config.metrics;
  if (!token) return;
  collectProcessMetrics();
  app.get("/metrics", async (event) => {
    const answer = await exposition(event.req.headers.get("authorization"), token);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
}

/** `/metrics` alone on its own port (METRICS_PORT), for a scraper inside the cluster; METRICS_TOKEN still applies. */
export async function startMetricsServer({ port, host, token }: { port: number; host: string; token?: string }) {
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") return void res.writeHead(404).end();
    exposition(req.headers.authorization, token).then(
      (answer) => res.writeHead(answer.status, answer.headers).end(answer.body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
