import pino, { type Logger } from "pino";
import type { DependencyContainer } from "tsyringe";
import type { H3 } from "h3";
import type { DevnetContract, DevnetInfo, Plugin, Store } from "../endpoint.ts";
import type { Config } from "./config.ts";
import {
  createContainer,
  createFamilyContainer,
  kCredits,
  kDevnet,
  kDisabled,
  kEndpoints,
  kEnv,
  kLedger,
  kPages,
  kPayments,
  kUpstreamTable,
  kUpstreams,
  resolveRuntime,
  type Runtime,
} from "./container.ts";
import { importPlugins, loadPlugins, mountable, readSettings, upstreamNamesOf } from "./load.ts";
import { createApp } from "./app.ts";
import { createJobs, type Jobs } from "./jobs.ts";
import { createMemoryStore } from "./store.ts";
import { createReadiness, mountReadiness, storeProbe, type Probe } from "./readiness.ts";
import type { Upstreams } from "./upstream.ts";
import type { PaymentGate } from "../x402/gate.ts";
import { receiptsAround } from "../receipts/setup.ts";
import type { Credits } from "../x402/credits.ts";
import type { Ledger } from "../x402/ledger.ts";

/** What the payment setup gives the service. */
export interface PaymentsPart {
  gate: PaymentGate;
  /** The devnet it started, for the families' devnet settings. */
  devnet?: Omit<DevnetInfo, "selfUrl">;
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
 * Loads the plugins, wires the container and builds the app: everything but listening. Each family gets its
 * own child container with its settings, read from configuration and, on the devnet, from what the devnet
 * deployed for it (configuration wins).
 */
export async function createService(parts: ServiceParts): Promise<Service> {
  const { config } = parts;
  const log = parts.log ?? pino({ level: config.logLevel });
  let runtime: Runtime | undefined;
  const plugins = await importPlugins({ only: config.plugins, given: parts.plugins, runtime: () => runtime! });
  // Settings are checked once before anything starts (a Redis connection, a devnet), so a bad value refuses at once.
  const early = readSettings(plugins, configured(config.env)).problems;
  if (early.length) throw new Error(`Plugins failed their checks:\n  ${early.join("\n  ")}`);
  const owned = parts.store ? undefined : config.storeUrl ? await openRedisStore(config.storeUrl, log) : undefined;
  const store = parts.store ?? owned ?? createMemoryStore();
  const root = createContainer({ config, store, log, now: parts.now, egressLoopbackPort: parts.egressLoopbackPort });
  let payments: PaymentsPart | undefined;
  try {
    payments = await parts.payments({
      store,
      log,
      ledger: root.resolve(kLedger),
      credits: root.resolve(kCredits),
      contracts: plugins.flatMap((p) => p.devnet?.contracts ?? []),
    });
    const paid = payments;
    const env = {
      ...devnetSettings(plugins, payments.devnet, config),
      ...upstreamEnv(payments.upstreamUrls),
      ...configured(config.env),
    };
    const loaded = await loadPlugins({ plugins, env, settings: parts.settings });
    root.register(kEnv, { useValue: env });
    root.register(kUpstreamTable, { useValue: loaded.upstreams });
    const upstreams = root.resolve<Upstreams>(kUpstreams);
    const { mounted, disabled } = mountable(
      loaded.endpoints,
      (name) => upstreams.missing(name),
      (setting) => Boolean(env[setting]),
    );
    root.register(kEndpoints, { useValue: mounted });
    root.register(kDisabled, { useValue: disabled });
    root.register(kPages, { useValue: { pages: loaded.pages, assets: loaded.assets } });
    root.register(kPayments, { useValue: receiptsAround(paid.gate, config, store) });
    // A factory, not useValue: tsyringe takes `useValue: undefined` (no devnet) for a class provider.
    const devnet = paid.devnet && { rpcUrl: paid.devnet.rpcUrl, chainId: paid.devnet.chainId };
    root.register(kDevnet, { useFactory: () => devnet });
    const families = new Map<string, DependencyContainer>(
      plugins.map((p) => [
        p.family,
        createFamilyContainer(root, p.family, loaded.settings.get(p.family), upstreamNamesOf(p, plugins)),
      ]),
    );
    runtime = resolveRuntime(root, families);
    const rt = runtime;
    const jobs = createJobs(rt, loaded.jobs);
    if (config.jobs) jobs.start();
    log.info(
      { families: loaded.families, endpoints: mounted.length, disabled, jobs: loaded.jobs.length },
      "plugins loaded",
    );
    const readiness = createReadiness({
      probes: { store: storeProbe(store), ...paid.probes },
      draining: () => rt.inflight.draining,
    });
    return {
      app: createApp(rt, { mount: (app) => mountReadiness(app, readiness) }),
      runtime: rt,
      jobs,
      async close() {
        const [unfinished] = await Promise.all([rt.inflight.drain(config.shutdownTimeoutMs), jobs.stop()]);
        if (unfinished) log.warn({ unfinished }, "shutdown: calls still running after SHUTDOWN_TIMEOUT_MS");
        await paid.stop?.();
        await owned?.close();
        for (const c of families.values()) c.dispose?.();
        root.dispose?.();
      },
    };
  } catch (error) {
    await payments?.stop?.();
    await owned?.close();
    throw error;
  }
}

/** What the devnet hands the families, in their settings' own terms; empty without a devnet. */
function devnetSettings(plugins: Plugin[], devnet: PaymentsPart["devnet"], config: Config): Record<string, string> {
  if (!devnet) return {};
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const selfUrl = `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
  return Object.assign({}, ...plugins.map((p) => p.devnet?.settings({ ...devnet, selfUrl }) ?? {}));
}

/** The variables configuration sets: an empty one is unset, and leaves a devnet's value in place. */
const configured = (env: Config["env"]) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));

/** Upstream URLs as the environment would give them (`UPSTREAM_<NAME>_URL`), so configuration still overrides them. */
function upstreamEnv(urls: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(urls).map(([name, url]) => [`UPSTREAM_${name.toUpperCase().replace(/-/g, "_")}_URL`, url]),
  );
}
