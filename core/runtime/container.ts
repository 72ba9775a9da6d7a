import "reflect-metadata";
import { container as root, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import pino, { type Logger } from "pino";
import type { AssetDef, Endpoint, PageDef, Store, Upstream, UpstreamTable } from "../endpoint.ts";
import type { Config } from "./config.ts";
import { createMemoryStore } from "./store.ts";
import { createRateLimiter, type RateLimiter } from "./ratelimit.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { createInflight, type Inflight } from "./inflight.ts";
import { createUpstreams, type ClientOptions, type Upstreams } from "./upstream.ts";
import { createEgress, type Egress } from "./egress.ts";
import { upstreamOverrides } from "./config.ts";
import { createCredits, type Credits } from "../payment/credits.ts";
import { createLedger, type Ledger } from "../payment/ledger.ts";
import type { PaymentGate } from "../payment/gate.ts";

export const kConfig = Symbol("config");
/** The environment the families' settings and the upstream overrides are read from (configuration over the devnet's). */
export const kEnv = Symbol("env");
export const kLogger = Symbol("logger");
export const kStore = Symbol("store");
export const kEndpoints = Symbol("endpoints");
export const kLimiter = Symbol("limiter");
export const kUpstreamTable = Symbol("upstream table");
export const kUpstreams = Symbol("upstreams");
export const kEgress = Symbol("egress");
export const kPayments = Symbol("payments");
export const kDisabled = Symbol("disabled");
export const kClock = Symbol("clock");
export const kPages = Symbol("pages");
export const kMetrics = Symbol("metrics");
export const kInflight = Symbol("inflight");
export const kLedger = Symbol("ledger");
export const kCredits = Symbol("credits");
export const kDevnet = Symbol("devnet");
/** In a family's own container: its settings, and the names of the upstreams it may call. */
export const kFamily = Symbol("family");
export const kSettings = Symbol("settings");
export const kFamilyUpstreams = Symbol("family upstreams");

/** What one family's handlers and jobs reach, resolved from the family's own child container. */
export interface FamilyScope {
  family: string;
  settings: unknown;
  /** A client for an upstream in the family's table (or the core's); another family's is refused. */
  upstream(name: string, options: ClientOptions): Upstream;
}

/** What the call path needs, resolved once from the container. */
export interface Runtime {
  config: Config;
  log: Logger;
  store: Store;
  endpoints: Endpoint[];
  limiter: RateLimiter;
  upstreams: Upstreams;
  egress: Egress;
  payments: PaymentGate;
  ledger: Ledger;
  credits: Credits;
  /** Endpoints left unmounted, with the reason; listed by /health. */
  disabled: { name: string; reason: string }[];
  /** Pages for humans and the files they load. */
  pages: { pages: PageDef[]; assets: AssetDef[] };
  /** The service clock: handlers and jobs read time here, so tests can move it. */
  now: () => Date;
  metrics: Metrics;
  /** The calls running now (graceful shutdown waits for them). */
  inflight: Inflight;
  /** Each loaded family's scope, by family name. */
  families: ReadonlyMap<string, FamilyScope>;
  /** The local chain the service started, when it runs its own devnet: /health names it for `npm run pay`. */
  devnet?: { rpcUrl: string; chainId: number };
}

export interface ContainerParts {
  config: Config;
  store?: Store;
  log?: Logger;
  now?: () => Date;
  /** Tests only: the one loopback port the egress guard lets through. */
  egressLoopbackPort?: number;
}

/**
 * The service's root: a fresh child of tsyringe's global container per service (tests make many). Tokens and
 * factories only (no decorators under tsx); each shared service is built on first use from the ones it needs.
 */
export function createContainer(parts: ContainerParts): DependencyContainer {
  const c = root.createChildContainer();
  const { config } = parts;
  const once = <T>(make: (c: DependencyContainer) => T) => ({ useFactory: instanceCachingFactory<T>(make) });
  c.register(kConfig, { useValue: config });
  c.register(kClock, { useValue: parts.now ?? (() => new Date()) });
  c.register(
    kMetrics,
    once(() => createMetrics()),
  );
  c.register(
    kInflight,
    once(() => createInflight()),
  );
  c.register(
    kLogger,
    once(() => parts.log ?? pino({ level: config.logLevel })),
  );
  c.register(
    kStore,
    once(() => parts.store ?? createMemoryStore()),
  );
  c.register(
    kLimiter,
    once((d) => createRateLimiter(d.resolve<Store>(kStore), config.rateLimitPerMinute)),
  );
  c.register(
    kLedger,
    once((d) => createLedger(d.resolve<Store>(kStore))),
  );
  c.register(
    kCredits,
    once((d) => createCredits(d.resolve<Store>(kStore))),
  );
  c.register(
    kEgress,
    once(() => createEgress({ ...config.egress, allowLoopbackPort: parts.egressLoopbackPort })),
  );
  c.register(
    kUpstreams,
    once((d) =>
      createUpstreams({
        ...config.upstream,
        table: d.resolve<UpstreamTable>(kUpstreamTable),
        overrides: upstreamOverrides(d.resolve(kEnv), d.resolve<UpstreamTable>(kUpstreamTable)),
        retries: 2,
        log: d.resolve<Logger>(kLogger),
        guard: d.resolve<Egress>(kEgress).check,
      }),
    ),
  );
  return c;
}

/**
 * A family's own container, the way fastify encapsulates a plugin: a child of the root holding the family's
 * settings and the upstreams it declared. What it registers stays inside; what the root holds is shared.
 */
export function createFamilyContainer(
  parent: DependencyContainer,
  family: string,
  settings: unknown,
  upstreamNames: readonly string[],
): DependencyContainer {
  const c = parent.createChildContainer();
  c.register(kFamily, { useValue: family });
  // A factory, not useValue: tsyringe takes `useValue: undefined` (a family without settings) for a class provider.
  c.register(kSettings, { useFactory: () => settings });
  c.register(kFamilyUpstreams, { useValue: new Set(upstreamNames) });
  return c;
}

function familyScope(c: DependencyContainer): FamilyScope {
  const family = c.resolve<string>(kFamily);
  const allowed = c.resolve<Set<string>>(kFamilyUpstreams);
  const upstreams = c.resolve<Upstreams>(kUpstreams);
  return {
    family,
    settings: c.resolve(kSettings),
    upstream(name, options) {
      if (!allowed.has(name)) throw new Error(`the ${family} family calls ${name}, which is not in its upstream table`);
      return upstreams.client(name, options);
    },
  };
}

export function resolveRuntime(c: DependencyContainer, families: ReadonlyMap<string, DependencyContainer>): Runtime {
  return {
    config: c.resolve(kConfig),
    log: c.resolve(kLogger),
    store: c.resolve(kStore),
    endpoints: c.resolve(kEndpoints),
    limiter: c.resolve(kLimiter),
    upstreams: c.resolve(kUpstreams),
    egress: c.resolve(kEgress),
    payments: c.resolve(kPayments),
    ledger: c.resolve(kLedger),
    credits: c.resolve(kCredits),
    disabled: c.resolve(kDisabled),
    pages: c.resolve(kPages),
    now: c.resolve(kClock),
    metrics: c.resolve(kMetrics),
    inflight: c.resolve(kInflight),
    devnet: c.resolve(kDevnet),
    families: new Map([...families].map(([name, fc]) => [name, familyScope(fc)])),
  };
}
