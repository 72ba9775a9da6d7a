import "reflect-metadata";
import { serviceKeyOf } from "../receipts/setup.ts";
import { container as root, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import type { Logger } from "pino";
import type { AssetDef, Endpoint, Instance, PageDef, Store, Upstream } from "../endpoint.ts";
import type { Config } from "./config.ts";
import type { Loaded } from "./load.ts";
import { createRateLimiter, type RateLimiter } from "./ratelimit.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { createInflight, type Inflight } from "./inflight.ts";
import { createUpstreams, type ClientOptions, type Upstreams } from "./upstream.ts";
import { createEgress, type Egress } from "./egress.ts";
import { upstreamOverrides } from "./config.ts";
import type { Credits } from "../payment/credits.ts";
import type { Ledger } from "../payment/ledger.ts";
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
  /** What a handler sees of this instance (`ctx.instance`). */
  instance: Instance;
}

export interface RuntimeParts {
  config: Config;
  log: Logger;
  store: Store;
  ledger: Ledger;
  credits: Credits;
  /** The families, checked, with their settings read. */
  loaded: Loaded;
  payments: PaymentGate;
  /** The local chain the payment setup started, when it runs its own devnet. */
  devnet?: { rpcUrl: string; chainId: number };
  /** Base URLs decided at boot (the payment chain's RPC, the devnet's chain), by upstream; configuration overrides them. */
  upstreamUrls: Record<string, string>;
  now?: () => Date;
  /** Tests only: the one loopback port the egress guard lets through. */
  egressLoopbackPort?: number;
}

/**
 * The service's container, a fresh child of tsyringe's global one per service (tests make many), with a child per
 * family the way fastify encapsulates a plugin: its settings and the upstreams it declared stay inside, what the
 * root holds is shared. Tokens and factories only (no decorators under tsx); each shared service is built on first
 * use from the ones it needs. Returns the runtime resolved from it, and how to dispose of it.
 */
export function createRuntime(parts: RuntimeParts): { runtime: Runtime; dispose(): void } {
  const { config, loaded } = parts;
  const c = root.createChildContainer();
  const once = <T>(make: (c: DependencyContainer) => T) => ({ useFactory: instanceCachingFactory<T>(make) });
  const env = { ...upstreamEnv(parts.upstreamUrls), ...loaded.env };
  c.register(kConfig, { useValue: config });
  c.register(kEnv, { useValue: env });
  c.register(kClock, { useValue: parts.now ?? (() => new Date()) });
  c.register(kLogger, { useValue: parts.log });
  c.register(kStore, { useValue: parts.store });
  c.register(kLedger, { useValue: parts.ledger });
  c.register(kCredits, { useValue: parts.credits });
  c.register(kPayments, { useValue: parts.payments });
  // A factory, not useValue: tsyringe takes `useValue: undefined` (no devnet) for a class provider.
  c.register(kDevnet, { useFactory: () => parts.devnet });
  c.register(kUpstreamTable, { useValue: loaded.upstreams });
  c.register(kPages, { useValue: { pages: loaded.pages, assets: loaded.assets } });
  c.register(
    kMetrics,
    once(() => createMetrics()),
  );
  c.register(
    kInflight,
    once(() => createInflight()),
  );
  c.register(
    kLimiter,
    once((d) => createRateLimiter(d.resolve<Store>(kStore), config.rateLimitPerMinute)),
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
        table: loaded.upstreams,
        overrides: upstreamOverrides(env, loaded.upstreams),
        retries: 2,
        log: d.resolve<Logger>(kLogger),
        guard: d.resolve<Egress>(kEgress).check,
      }),
    ),
  );
  const upstreams = c.resolve<Upstreams>(kUpstreams);
  const { mounted, disabled } = mountable(
    loaded.endpoints,
    (name) => upstreams.missing(name),
    (setting) => Boolean(env[setting]),
  );
  c.register(kEndpoints, { useValue: mounted });
  c.register(kDisabled, { useValue: disabled });
  const families = new Map(
    loaded.families.map((family) => {
      const fc = c.createChildContainer();
      fc.register(kFamily, { useValue: family });
      // A factory, not useValue: tsyringe takes `useValue: undefined` (a family without settings) for a class provider.
      fc.register(kSettings, { useFactory: () => loaded.settings.get(family) });
      fc.register(kFamilyUpstreams, { useValue: new Set(loaded.upstreamNames.get(family)) });
      return [family, fc] as const;
    }),
  );
  return {
    runtime: resolveRuntime(c, families),
    dispose() {
      for (const fc of families.values()) fc.dispose?.();
      c.dispose?.();
    },
  };
}

/** Upstream URLs as the environment would give them (`UPSTREAM_<NAME>_URL`), so configuration still overrides them. */
const upstreamEnv = (urls: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(urls).map(([name, url]) => [`UPSTREAM_${name.toUpperCase().replace(/-/g, "_")}_URL`, url]),
  );

/**
 * The loaded endpoints split into those to mount and those left out, with the reason: a missing key, URL or
 * setting, or a part (`composes`) that is itself left out, since a bundle sold whole must be able to run whole.
 */
export function mountable(
  endpoints: Endpoint[],
  missingOf: (upstream: string) => string[],
  isSet: (setting: string) => boolean,
) {
  const disabled: { name: string; reason: string }[] = [];
  for (const e of endpoints) {
    const missing = (e.upstreams ?? []).filter((u: string) => missingOf(u).length > 0);
    const unset = (e.requires ?? []).filter((setting) => !isSet(setting));
    if (missing.length) {
      const variables = [...new Set(missing.flatMap(missingOf))];
      disabled.push({ name: e.name, reason: `missing ${variables.join(", ")} (upstream ${missing.join(", ")})` });
    } else if (unset.length) disabled.push({ name: e.name, reason: `missing configuration ${unset.join(", ")}` });
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of endpoints) {
      const off = (e.composes ?? []).filter((part) => disabled.some((d) => d.name === part));
      if (!off.length || disabled.some((d) => d.name === e.name)) continue;
      disabled.push({ name: e.name, reason: `its part${off.length > 1 ? "s" : ""} ${off.join(", ")} disabled` });
      grew = true;
    }
  }
  const mounted = endpoints.filter((e) => !disabled.some((d) => d.name === e.name));
  return { mounted, disabled };
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

function resolveRuntime(c: DependencyContainer, families: ReadonlyMap<string, DependencyContainer>): Runtime {
  const disabled = c.resolve<Runtime["disabled"]>(kDisabled);
  const metrics = c.resolve<Metrics>(kMetrics);
  const upstreams = c.resolve<Upstreams>(kUpstreams);
  const ledger = c.resolve<Ledger>(kLedger);
  return {
    config: c.resolve(kConfig),
    log: c.resolve(kLogger),
    store: c.resolve(kStore),
    endpoints: c.resolve(kEndpoints),
    limiter: c.resolve(kLimiter),
    upstreams,
    egress: c.resolve(kEgress),
    payments: c.resolve(kPayments),
    ledger,
    credits: c.resolve(kCredits),
    disabled,
    pages: c.resolve(kPages),
    now: c.resolve(kClock),
    metrics,
    inflight: c.resolve(kInflight),
    devnet: c.resolve(kDevnet),
    families: new Map([...families].map(([name, fc]) => [name, familyScope(fc)])),
    instance: {
      disabled,
      calls: () => metrics.snapshot(),
      circuits: () => upstreams.circuits(),
      settlements: () => ledger.stats(),
      signingKey: serviceKeyOf(c.resolve(kConfig)),
    },
  };
}
