import { randomUUID } from "node:crypto";
import pino, { type Logger } from "pino";
import { readConfig } from "../../core/runtime/config.ts";
import { createService } from "../../core/runtime/server.ts";
import { invoke } from "../../core/runtime/invoke.ts";
import type { Outcome } from "../../core/runtime/call.ts";
import { createClosedGate } from "../../core/payment/gate.ts";
import { x402Offers, type X402Gate } from "../../core/x402/offers.ts";
import { creditHeader } from "../../core/payment/credits.ts";
import type { PaymentOption } from "../../core/x402/requirements.ts";
import type * as v from "valibot";
import type { EndpointDef, Plugin, Store } from "../../core/endpoint.ts";
import type { ErrorBody } from "../../core/runtime/errors.ts";

export const testPaymentOption: PaymentOption = {
  network: "eip155:84532",
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  decimals: 6,
  extra: { name: "USDC", version: "2" },
  maxTimeoutSeconds: 300,
};

export interface TestServiceOptions {
  /** Families to load (PLUGINS); all when unset. */
  plugins?: string[];
  /**
   * The service's environment, families' settings included (`DNS_SERVERS`, `UPSTREAM_COINGECKO_URL` pointing at a
   * fixture server): the global process.env is never read or changed.
   */
  env?: Record<string, string>;
  /** Replaces part of a family's settings for this service only, by family (`{ state: { watchesPerWallet: 2 } }`). */
  settings?: Record<string, object>;
  payments?: X402Gate;
  /** Plugins given as values instead of loaded from plugins/. */
  given?: Plugin[];
  /** The one loopback port the egress guard lets through (a local test target). */
  egressLoopbackPort?: number;
  /** A store shared with another instance (several instances on one store). */
  store?: Store;
  /** A clock the test moves; background jobs are off and run with `service.jobs.run(name)`. */
  now?: () => Date;
  /** A logger the test reads; silent otherwise. */
  log?: Logger;
}

type AnyEndpoint = EndpointDef<any, any, any, any>;
/** What a test may pass to an endpoint: its input schema's input (fields with defaults optional). */
export type InputOf<E extends AnyEndpoint> = v.InferInput<E["input"]>;
/** What an endpoint answers in `data`: its output schema's output. */
export type OutputOf<E extends AnyEndpoint> = v.InferOutput<E["output"]>;

/** The envelope's `meta` of an endpoint's answer. */
export interface AnswerMeta {
  product: string;
  endpoint: string;
  ts: string;
  sources?: string[];
  cached?: true;
}

/** An endpoint's answer body: its data in the envelope, or the error it failed with. */
export type Answer<T> = { meta: AnswerMeta; data: T } | ErrorBody;

/** The outcome of a call that named its endpoint by definition: the body typed by the endpoint's output. */
export interface Called<T> extends Outcome {
  body: Answer<T>;
}

export const testPayer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

/** `UPSTREAM_<NAME>_URL` for each upstream name: the environment that points those upstreams at a test server. */
export const upstreamUrlEnv = (names: Iterable<string>, urlOf: (name: string) => string): Record<string, string> =>
  Object.fromEntries([...names].map((name) => [`UPSTREAM_${name.toUpperCase().replace(/-/g, "_")}_URL`, urlOf(name)]));

/**
 * A gate without a chain for tests of what happens around a payment: a call sent with X-CREDIT-CODE runs as
 * paid by `testPayer` and then "settles" (the outcome carries payer and price) or, with `settles: false`,
 * fails to (a 402, the answer withheld, its effects never applied). Calls without it get the route's 402.
 */
export function settlingGate({ settles = true } = {}): X402Gate {
  const closed = createClosedGate(x402Offers([testPaymentOption], "http://127.0.0.1:4021"));
  return {
    ...closed,
    async charge(call, work, price, commit) {
      if (!call.payment?.[creditHeader]) return closed.charge(call, work, price);
      const outcome = await work(testPayer);
      if (outcome.status >= 400) return outcome;
      if (!settles)
        return {
          status: 402,
          body: { error: "Settlement failed; nothing was charged and the answer is withheld" },
          headers: {},
        };
      const final = commit ? await commit(outcome) : outcome;
      if (!final)
        return { status: 503, body: { error: { code: "effect_failed", message: "effects failed" } }, headers: {} };
      return { ...final, payer: testPayer, charged: closed.requirements(call.endpoint, price).amount };
    },
  };
}

/** settlingGate, listing every call it charged (endpoint, status): a charged failure shows up here. */
export function chargeRecorder() {
  const gate = settlingGate();
  const charged: { endpoint: string; status: number; body: unknown }[] = [];
  const charge: X402Gate["charge"] = (call, work, price) => {
    const out = gate.charge(call, work, price);
    const record = (outcome: Outcome) => {
      if (outcome.charged) charged.push({ endpoint: call.endpoint.name, status: outcome.status, body: outcome.body });
      return outcome;
    };
    return out instanceof Promise ? out.then(record) : record(out);
  };
  return { gate: { ...gate, charge }, charged };
}

// Every service a test file starts is closed once the file's tests are done and nothing else is left to run.
// (node:test's root `after` is no place for it: a top-level await between two tests runs it early, and an
// `after` inside a `before` hook runs at once.)
const open = new Set<() => Promise<void>>();
process.once("beforeExit", () => void Promise.all([...open].map((close) => close())));

/** The service, closed when the file is done; closing it earlier by hand is fine (a second close waits for the first). */
export function closedAfterTest<S extends { close(): Promise<void> }>(service: S): S {
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= service.close().finally(() => open.delete(close)));
  open.add(close);
  return { ...service, close };
}

/** The real service in-process: no socket, a fresh container, payments closed unless a gate is given; closed when the file ends. */
export async function startTestService(options: TestServiceOptions = {}) {
  const config = readConfig({
    BASE_URL: "http://127.0.0.1:4021",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    JOBS: "off",
    ...(options.plugins ? { PLUGINS: options.plugins.join(",") } : {}),
    ...options.env,
  });
  const { app, runtime, jobs, close } = closedAfterTest(
    await createService({
      config,
      log: options.log ?? pino({ level: "silent" }),
      plugins: options.given,
      egressLoopbackPort: options.egressLoopbackPort,
      now: options.now,
      store: options.store,
      settings: options.settings,
      payments: async () => ({
        gate: options.payments ?? createClosedGate(x402Offers([testPaymentOption], config.baseUrl)),
      }),
    }),
  );
  const endpoint = (name: string) => {
    const found = runtime.endpoints.find((e) => e.name === name);
    if (!found) throw new Error(`endpoint ${name} is not loaded`);
    return found;
  };
  return {
    app,
    runtime,
    jobs,
    close,
    request: (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init)),
    call,
    callAs,
  };
  /**
   * Runs an endpoint as a prepaid call (the path batch items take): validation, handler, output check. Given the
   * endpoint's definition (its module's default export), the input and the answer are typed by its schemas; given
   * a name, neither is (input the schema must refuse, endpoints of plugins built in the test).
   */
  function call<E extends AnyEndpoint>(endpoint: E, input: InputOf<E>): Promise<Called<OutputOf<E>>>;
  function call(name: string, input: unknown): Promise<Outcome>;
  function call(endpoint: string | AnyEndpoint, input: unknown): Promise<Outcome> {
    return run(undefined, endpoint, input);
  }
  /** The same, as a call already paid by `payer` (the identity of the agent-state routes). */
  function callAs<E extends AnyEndpoint>(
    payer: `0x${string}` | undefined,
    endpoint: E,
    input: InputOf<E>,
  ): Promise<Called<OutputOf<E>>>;
  function callAs(payer: `0x${string}` | undefined, name: string, input: unknown): Promise<Outcome>;
  function callAs(payer: `0x${string}` | undefined, endpoint: string | AnyEndpoint, input: unknown): Promise<Outcome> {
    return run(payer, endpoint, input);
  }
  async function run(payer: `0x${string}` | undefined, nameOrEndpoint: string | AnyEndpoint, input: unknown) {
    const name = typeof nameOrEndpoint === "string" ? nameOrEndpoint : nameOrEndpoint.name;
    return invoke(runtime, {
      endpoint: endpoint(name),
      input,
      resource: config.baseUrl + endpoint(name).path,
      requestId: randomUUID(),
      clientIp: "127.0.0.1",
      prepaid: { payer },
    });
  }
}
