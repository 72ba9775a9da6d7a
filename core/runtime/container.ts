import "reflect-metadata";
import { container as root, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import pino, { type Logger } from "pino";
import type { AssetDef, Endpoint, PageDef, Store } from "../endpoint.ts";
import type { Config } from "./config.ts";
import { createMemoryStore } from "./store.ts";
import { createRateLimiter, type RateLimiter } from "./ratelimit.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { createInflight, type Inflight } from "./inflight.ts";
import type { createUpstreams } from "./upstream.ts";
import type { Egress } from "./egress.ts";
import type { PaymentGate } from "../x402/gate.ts";

type Upstreams = ReturnType<typeof createUpstreams>;

export const kConfig = Symbol("config");
export const kLogger = Symbol("logger");
export const kStore = Symbol("store");
export const kEndpoints = Symbol("endpoints");
export const kLimiter = Symbol("limiter");
export const kUpstreams = Symbol("upstreams");
export const kEgress = Symbol("egress");
export const kPayments = Symbol("payments");
export const kDisabled = Symbol("disabled");
export const kClock = Symbol("clock");
export const kPages = Symbol("pages");
export const kMetrics = Symbol("metrics");
export const kInflight = Symbol("inflight");

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
  /** Endpoints left unmounted, with the reason; listed by /health. */
  disabled: { name: string; reason: string }[];
  /** Pages for humans and the files they load. */
  pages: { pages: PageDef[]; assets: AssetDef[] };
  /** The service clock: handlers and jobs read time here, so tests can move it. */
  now: () => Date;
  metrics: Metrics;
  /** The calls running now (graceful shutdown waits for them). */
  inflight: Inflight;
}

export interface RuntimeParts {
  config: Config;
  endpoints: Endpoint[];
  payments: PaymentGate;
  upstreams: Upstreams;
  egress: Egress;
  disabled?: { name: string; reason: string }[];
  pages?: PageDef[];
  assets?: AssetDef[];
  now?: () => Date;
  store?: Store;
  log?: Logger;
}

/** A fresh child container per runtime (tests make many); tokens and factories only, no decorators. */
export function createContainer(parts: RuntimeParts): DependencyContainer {
  const c = root.createChildContainer();
  const { config } = parts;
  c.register(kConfig, { useValue: config });
  c.register(kEndpoints, { useValue: parts.endpoints });
  c.register(kPayments, { useValue: parts.payments });
  c.register(kDisabled, { useValue: parts.disabled ?? [] });
  c.register(kPages, { useValue: { pages: parts.pages ?? [], assets: parts.assets ?? [] } });
  c.register(kClock, { useValue: parts.now ?? (() => new Date()) });
  c.register(kMetrics, { useFactory: instanceCachingFactory(() => createMetrics()) });
  c.register(kInflight, { useFactory: instanceCachingFactory(() => createInflight()) });
  c.register(kLogger, { useFactory: instanceCachingFactory(() => parts.log ?? pino({ level: config.logLevel })) });
  c.register(kStore, { useFactory: instanceCachingFactory(() => parts.store ?? createMemoryStore()) });
  c.register(kLimiter, {
    useFactory: instanceCachingFactory((d) => createRateLimiter(d.resolve<Store>(kStore), config.rateLimitPerMinute)),
  });
  c.register(kUpstreams, { useValue: parts.upstreams });
  c.register(kEgress, { useValue: parts.egress });
  return c;
}

export function resolveRuntime(c: DependencyContainer): Runtime {
  return {
    config: c.resolve(kConfig),
    log: c.resolve(kLogger),
    store: c.resolve(kStore),
    endpoints: c.resolve(kEndpoints),
    limiter: c.resolve(kLimiter),
    upstreams: c.resolve(kUpstreams),
    egress: c.resolve(kEgress),
    payments: c.resolve(kPayments),
    disabled: c.resolve(kDisabled),
    pages: c.resolve(kPages),
    now: c.resolve(kClock),
    metrics: c.resolve(kMetrics),
    inflight: c.resolve(kInflight),
  };
}
