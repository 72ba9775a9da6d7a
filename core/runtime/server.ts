import pino, { type Logger } from "pino";
import type { H3 } from "h3";
import type { Store } from "../endpoint.ts";
import type { Config } from "./config.ts";
import { createContainer, resolveRuntime, type Runtime } from "./container.ts";
import { loadPlugins } from "./load.ts";
import { createApp } from "./app.ts";
import { createUpstreams } from "./upstream.ts";
import { upstreams as upstreamTable } from "./upstreams.ts";
import type { PaymentGate } from "../x402/gate.ts";

export interface ServiceParts {
  config: Config;
  /** Builds the payment gate once the plugins are loaded (the devnet, a facilitator, or a test gate). */
  payments: (log: Logger) => Promise<PaymentGate>;
  log?: Logger;
  store?: Store;
}

export interface Service {
  app: H3;
  runtime: Runtime;
}

/** Loads the plugins, wires the container and builds the app: everything but listening. */
export async function createService(parts: ServiceParts): Promise<Service> {
  const { config } = parts;
  const log = parts.log ?? pino({ level: config.logLevel });
  const upstreams = createUpstreams({ table: upstreamTable, ...config.upstream, retries: 2, log });
  const loaded = await loadPlugins({
    only: config.plugins,
    isConfigured: (name) => upstreams.isConfigured(name),
    knownUpstreams: Object.keys(upstreamTable),
  });
  const payments = await parts.payments(log);
  const container = createContainer({ config, endpoints: loaded.endpoints, disabled: loaded.disabled, payments, upstreams, log, store: parts.store });
  const runtime = resolveRuntime(container);
  log.info({ families: loaded.families, endpoints: loaded.endpoints.length, disabled: loaded.disabled }, "plugins loaded");
  return { app: createApp(runtime), runtime };
}
