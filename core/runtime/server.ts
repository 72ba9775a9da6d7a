import pino, { type Logger } from "pino";
import type { H3 } from "h3";
import type { DevnetContract, DevnetInfo, Plugin, Store } from "../endpoint.ts";
import type { Config } from "./config.ts";
import { loadPlugins } from "./load.ts";
import { createMemoryStore } from "./store.ts";
import { createLedger, type Ledger } from "../payment/ledger.ts";
import { createCredits, type Credits } from "../payment/credits.ts";
import { createRuntime, type Runtime } from "./container.ts";
import { createJobs, type Jobs } from "./jobs.ts";
import type { Probe } from "./readiness.ts";
import { createApp } from "./app.ts";
import type { PaymentGate } from "../payment/gate.ts";
import { warmDeferred } from "../shared.ts";

/** What the payment setup gives the service. */
export interface PaymentsPart {
  gate: PaymentGate;
  /** The devnet it started: /health names its chain, and its contracts must stand where `ServiceParts.devnet` said. */
  devnet?: { rpcUrl: string; chainId: number; contracts: Readonly<Record<string, `0x${string}`>> };
  /** Upstream base URLs it decides (the payment network's RPC), unless configuration names them. */
  upstreamUrls?: Record<string, string>;
  probes?: Record<string, Probe>;
  stop?(): Promise<void>;
}

/** What the payment setup is built from: the service's shared state, and what the families need on a devnet. */
export interface PaymentsContext {
  store: Store;
  log: Logger;
  ledger: Ledger;
  credits: Credits;
  /** The contracts the loaded families need deployed when the setup is the devnet. */
  contracts: DevnetContract[];
}

export interface ServiceParts {
  config: Config;
  /** Builds the payment gate (the devnet, a facilitator, or a test gate). */
  payments: (context: PaymentsContext) => Promise<PaymentsPart>;
  /**
   * When the payment setup starts its own devnet: what it will hold, given the contracts to deploy, so the
   * families' devnet settings are read with the rest before it starts.
   */
  devnet?: (contracts: DevnetContract[]) => Omit<DevnetInfo, "selfUrl">;
  log?: Logger;
  /** A store the caller owns (and closes); otherwise Redis when STORE_URL is set, else memory. */
  store?: Store;
  /** Plugins given directly instead of loaded from plugins/ (tests use probe endpoints this way). */
  plugins?: Plugin[];
  /** Tests only: settings that replace what a family read, by family. */
  settings?: Record<string, object>;
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
const openRedisStore = async (url: string, log: Logger) =>
  (await import("./redis-store.ts")).createRedisStore(url, log);

/**
 * Builds the service in one pass, everything but listening: the families are imported and checked and their
 * settings read once (configuration over what the devnet will hold), before anything slow starts (a Redis
 * connection, a devnet), so a bad value refuses at once; then the store, the payment setup, the container
 * with each family's own child, the jobs and the app.
 */
export async function createService(parts: ServiceParts): Promise<Service> {
  const { config } = parts;
  const log = parts.log ?? pino({ level: config.logLevel });
  const loaded = await loadPlugins({
    only: config.plugins,
    given: parts.plugins,
    env: configured(config.env),
    devnet: parts.devnet && { plan: parts.devnet, selfUrl: selfUrlOf(config) },
    settings: parts.settings,
  });
  const owned = parts.store ? undefined : config.storeUrl ? await openRedisStore(config.storeUrl, log) : undefined;
  const store = parts.store ?? owned ?? createMemoryStore();
  const ledger = createLedger(store);
  const credits = createCredits(store);
  let payments: PaymentsPart | undefined;
  try {
    payments = await parts.payments({ store, log, ledger, credits, contracts: loaded.contracts });
    const paid = payments;
    const devnet = paid.devnet && { rpcUrl: paid.devnet.rpcUrl, chainId: paid.devnet.chainId };
    if (loaded.devnet) checkDeployed(loaded.devnet, paid.devnet);
    const built = createRuntime({
      config,
      log,
      store,
      ledger,
      credits,
      loaded,
      payments: paid.gate,
      devnet,
      upstreamUrls: {
        ...paid.upstreamUrls,
        ...(devnet && Object.fromEntries(loaded.chainUpstreams.map((name) => [name, devnet.rpcUrl]))),
      },
      now: parts.now,
      egressLoopbackPort: parts.egressLoopbackPort,
    });
    const rt = built.runtime;
    const jobs = createJobs(rt, loaded.jobs);
    if (config.jobs) jobs.start();
    log.info(
      { families: loaded.families, endpoints: rt.endpoints.length, disabled: rt.disabled, jobs: loaded.jobs.length },
      "plugins loaded",
    );
    // What the families load only on use (lazyWarmed) loads now, in the background, before calls need it.
    setImmediate(warmDeferred).unref();
    return {
      app: createApp(rt, { probes: paid.probes }),
      runtime: rt,
      jobs,
      async close() {
        const [unfinished] = await Promise.all([rt.inflight.drain(config.shutdownTimeoutMs), jobs.stop()]);
        if (unfinished) log.warn({ unfinished }, "shutdown: calls still running after SHUTDOWN_TIMEOUT_MS");
        await paid.stop?.();
        await owned?.close();
        built.dispose();
      },
    };
  } catch (error) {
    await payments?.stop?.();
    await owned?.close();
    throw error;
  }
}

/** Where this service answers on loopback, for what the devnet hands the families. */
function selfUrlOf(config: Config) {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** The devnet deployed each family's contract where the families' settings were told it would stand. */
function checkDeployed(planned: DevnetInfo, started: PaymentsPart["devnet"]) {
  const misplaced = Object.entries(planned.contracts).filter(([name, at]) => started?.contracts[name] !== at);
  if (!started || misplaced.length)
    throw new Error(
      `the devnet did not deploy ${misplaced.map(([name, at]) => `${name} at ${at}`).join(", ") || "anything"} as planned`,
    );
}

/** The variables configuration sets: an empty one is unset, and leaves a devnet's value in place. */
const configured = (env: Config["env"]) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
