import pino, { type Logger } from "pino";
import type { H3 } from "h3";
import type { Plugin, Store } from "../endpoint.ts";
import type { Config } from "./config.ts";
import { createContainer, resolveRuntime, type Runtime } from "./container.ts";
import { loadPlugins } from "./load.ts";
import { createApp } from "./app.ts";
import { createJobs, type Jobs } from "./jobs.ts";
import { createMemoryStore } from "./store.ts";
import { createReadiness, mountReadiness, storeProbe, type Probe } from "./readiness.ts";
import { createUpstreams } from "./upstream.ts";
import { createEgress } from "./egress.ts";
import { upstreams as upstreamTable } from "./upstreams.ts";
import type { PaymentGate } from "../x402/gate.ts";

export interface ServiceParts {
  config: Config;
  /** Builds the payment gate on the service's store (the devnet, a facilitator, or a test gate). */
  payments: (store: Store, log: Logger) => Promise<{ gate: PaymentGate; upstreamUrls?: Record<string, string>; probes?: Record<string, Probe>; stop?(): Promise<void> }>;
  log?: Logger;
  /** A store the caller owns (and closes); otherwise Redis when STORE_URL is set, else memory. */
  store?: Store;
  /** Plugins given directly instead of loaded from plugins/ (tests use probe endpoints this way). */
  plugins?: Plugin[];
  /** Tests only, never configuration: the one loopback port the egress guard lets through. */
  egressLoopbackPort?: number;
  /** Tests only: a clock they can move (handlers and jobs read time from it). */
  now?: () => Date;
}

export interface Service {
  app: H3;
  runtime: Runtime;
  jobs: Jobs;
  /** Graceful shutdown: refuses new calls, lets running ones finish (up to SHUTDOWN_TIMEOUT_MS), stops the jobs at their next safe point, then closes the store it opened. */
  close(): Promise<void>;
}

/** The Redis client is a large module tree: loaded only when STORE_URL asks for it. */
const openRedisStore = async (url: string, log: Logger) => (await import("./redis-store.ts")).createRedisStore(url, log);

/** Loads the plugins, wires the container and builds the app: everything but listening. */
export async function createService(parts: ServiceParts): Promise<Service> {
  const { config } = parts;
  const log = parts.log ?? pino({ level: config.logLevel });
  const owned = parts.store ? undefined : config.storeUrl ? await openRedisStore(config.storeUrl, log) : undefined;
  const store = parts.store ?? owned ?? createMemoryStore();
  const payments = await parts.payments(store, log);
  const egress = createEgress({ ...config.egress, allowLoopbackPort: parts.egressLoopbackPort });
  const upstreams = createUpstreams({
    table: upstreamTable,
    ...config.upstream,
    overrides: withDefaults(config.upstream.overrides, payments.upstreamUrls),
    retries: 2,
    log,
    guard: egress.check,
  });
  const loaded = await loadPlugins({
    only: config.plugins,
    given: parts.plugins,
    isConfigured: (name) => upstreams.isConfigured(name),
    isSet: (variable) => Boolean(process.env[variable]),
    knownUpstreams: Object.keys(upstreamTable),
    runtime: () => runtime,
  });
  const container = createContainer({
    config,
    endpoints: loaded.endpoints,
    disabled: loaded.disabled,
    pages: loaded.pages,
    assets: loaded.assets,
    now: parts.now,
    payments: payments.gate,
    upstreams,
    egress,
    log,
    store,
  });
  const runtime = resolveRuntime(container);
  const jobs = createJobs(runtime, loaded.jobs);
  if (config.jobs) jobs.start();
  log.info({ families: loaded.families, endpoints: loaded.endpoints.length, disabled: loaded.disabled, jobs: loaded.jobs.length }, "plugins loaded");
  const readiness = createReadiness({ probes: { store: storeProbe(store), ...payments.probes }, draining: () => runtime.inflight.draining });
  return {
    app: createApp(runtime, { mount: (app) => mountReadiness(app, readiness) }),
    runtime,
    jobs,
    async close() {
      const [unfinished] = await Promise.all([runtime.inflight.drain(config.shutdownTimeoutMs), jobs.stop()]);
      if (unfinished) log.warn({ unfinished }, "shutdown: calls still running after SHUTDOWN_TIMEOUT_MS");
      await payments.stop?.();
      await owned?.close();
      container.dispose?.();
    },
  };
}

/** URLs the payment setup decides (the devnet's RPC) apply unless configuration names one. */
function withDefaults(overrides: Record<string, { url?: string; key?: string }>, urls: Record<string, string> = {}) {
  const merged = { ...overrides };
  for (const [name, url] of Object.entries(urls)) merged[name] = { url, ...overrides[name] };
  return merged;
}
