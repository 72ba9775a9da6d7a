import * as v from "valibot";
import type { CreditIssuer, Endpoint, EndpointContext, Holdings, StoreWrite } from "../endpoint.ts";
import type { Runtime } from "./container.ts";
import { ServiceError, toErrorBody, toServiceError, unavailable } from "./errors.ts";
import { andThen, type MaybePromise } from "./maybe.ts";
import { dataWrite, described, keep, newUnit, partOf, release, reserve, withdraw, type Unit } from "./effects.ts";
import type { Commit } from "../payment/gate.ts";
import type { Call, Outcome } from "./call.ts";
import { parseInput } from "./schema.ts";
import { isFree, stableJson, toAtomicAmount } from "../shared.ts";
import { metrics } from "./prometheus.ts";
import { lastHour } from "./rolling.ts";
import { tracing, type Tracer } from "./tracing.ts";
import { withSignIn } from "../sign-in/gate.ts";

/**
 * The one call path (design section 3): rate limit, validate (free), then the payment gate around the
 * handler. HTTP, batch, bundles and MCP all come through here and turn the outcome into their own reply.
 * It awaits only where a step has to: an unpaid call's 402 (or a 400) comes back as a value, answered
 * inside the request event, which measured +16% on that path (bench/findings.md).
 */
export function invoke(rt: Runtime, call: Call): MaybePromise<Outcome> {
  // A part of a call already running goes on during a shutdown; a new call is sent elsewhere.
  if (rt.inflight.draining && !call.prepaid)
    return failure(rt, call, unavailable("This instance is shutting down; retry the call", 1));
  const tracer = tracing.tracer;
  return rt.inflight.track(tracer ? traced(tracer, rt, call) : throughTheGate(rt, call));
}

/** The call as a span, continuing the trace its caller sent (`traceparent`); a part of a call continues its parent's. */
function traced(tracer: Tracer, rt: Runtime, call: Call): MaybePromise<Outcome> {
  const headers = call.prepaid ? undefined : call.headers;
  const span = tracer.start(
    `call ${call.endpoint.name}`,
    { "x402.route": call.endpoint.path, "x402.family": call.endpoint.family, "x402.request_id": call.requestId },
    { traceparent: headers?.get("traceparent"), tracestate: headers?.get("tracestate"), kind: "server" },
  );
  const ended = (outcome: Outcome) => {
    span.end({ "http.response.status_code": outcome.status }, outcome.status >= 500);
    return outcome;
  };
  const outcome = span.within(() => throughTheGate(rt, call));
  return outcome instanceof Promise ? outcome.then(ended) : ended(outcome);
}

function throughTheGate(rt: Runtime, call: Call): MaybePromise<Outcome> {
  const started = performance.now();
  const recorded = (outcome: Outcome) => {
    const { status } = outcome;
    if (status === 402) {
      if (!call.prepaid) metrics.challenges.inc({ route: call.endpoint.path });
    } else if (status !== 429) {
      const ms = performance.now() - started;
      rt.metrics.record(call.endpoint.name, status, ms);
      // Bad input is the caller's doing: it counts neither for nor against the family.
      const failed = status >= 500 ? true : status < 400 ? false : undefined;
      lastHour.record(`family:${call.endpoint.family}`, ms, failed);
      lastHour.record("calls", ms, failed);
    }
    return outcome;
  };
  const failed = (error: unknown) => recorded(failure(rt, call, error));
  try {
    // The limits are counted in the store: while it is unreachable a free call goes on uncounted.
    const limited =
      call.prepaid || rt.store.reachable?.() === false ? undefined : rt.limiter.hit(`ip:${call.clientIp}`);
    const outcome = andThen(limited, () => gated(rt, call));
    return outcome instanceof Promise ? outcome.then(recorded, failed) : recorded(outcome);
  } catch (error) {
    return failed(error);
  }
}

/**
 * Validation, then the handler: directly for a free or prepaid call, inside the payment gate otherwise. The
 * handler's reservations and writes (its unit) are kept only once the call is paid for: by the gate after
 * settlement, right after a free handler, and by the parent for a part (a batch item, a bundle part). A call
 * that ends any other way (refused, failed, unsettled, an error) releases them.
 */
function gated(rt: Runtime, call: Call): MaybePromise<Outcome> {
  const input = parseInput(call.endpoint, call.input);
  if (call.unit) return run(rt, call, input, call.unit, call.prepaid?.payer);
  const unit = newUnit();
  const cx = { store: rt.store, log: rt.log, about: { endpoint: call.endpoint.name, reqId: call.requestId } };
  let committed = false;
  const keepUnit = async (outcome: Outcome) => {
    committed = true;
    const withdrawn = await keep(cx, unit, Boolean(unit.answerWhenPaid));
    if (!withdrawn || !unit.answerWhenPaid) return withdrawn ? outcome : undefined;
    try {
      return answerOf(call.endpoint, await unit.answerWhenPaid(withdrawn), outcome);
    } catch (err) {
      rt.log.error({ ...cx.about, err }, "a paid call's answer could not be completed; its writes are withdrawn");
      return withdraw(cx, unit);
    }
  };
  const commit: Commit = Object.assign(keepUnit, { effects: () => described(unit) });
  const settled = (outcome: Outcome) => (committed ? outcome : release(cx, unit).then(() => outcome));
  const unpaid = async (error: unknown): Promise<Outcome> => {
    if (!committed) await release(cx, unit);
    throw error;
  };
  if (call.prepaid || isFree(call.endpoint)) {
    const free =
      call.endpoint.signIn && !call.prepaid
        ? withSignIn(rt, call, (wallet) => run(rt, { ...call, wallet }, input, unit))
        : run(rt, call, input, unit, call.prepaid?.payer);
    return free
      .then(async (outcome) =>
        outcome.status >= 400 ? outcome : ((await commit(outcome)) ?? failure(rt, call, effectFailed())),
      )
      .then(settled, unpaid);
  }
  // Claims, ledger and credits live in the store: without it no payment is taken, not even verified.
  if (rt.store.reachable?.() === false) return failure(rt, call, storeUnavailable());
  const price = call.endpoint.priceOf?.(input, rt.endpoints);
  const charged = rt.payments.charge(
    call,
    // A paid call runs to its end when the caller hangs up: the authorization is spent once its handler starts.
    (payer, terms) =>
      run(rt, { ...call, signal: undefined }, input, unit, payer, terms?.payAsUsed).catch((e) => failure(rt, call, e)),
    price,
    commit,
  );
  // An unpaid call's 402 comes back as a value: nothing ran, nothing is held.
  return charged instanceof Promise ? charged.then(settled, unpaid) : charged;
}

const storeUnavailable = () =>
  new ServiceError(
    503,
    "store_unavailable",
    "The shared store is unreachable; nothing was charged, retry shortly",
    undefined,
    {
      "retry-after": "5",
    },
  );

const effectFailed = () => new ServiceError(503, "effect_failed", "The change could not be saved; retry the call");

/** The outcome with the answer a call gave once paid (`ctx.answerWhenPaid`), checked against its schema like the first. */
function answerOf(endpoint: Endpoint, data: unknown, outcome: Outcome): Outcome {
  const checked = v.parse(endpoint.output, data);
  const body = outcome.body as { meta: object };
  return { ...outcome, body: { ...body, data: checked } };
}

interface Cached {
  data: unknown;
  sources: string[];
}

async function run(
  rt: Runtime,
  call: Call,
  input: unknown,
  unit: Unit,
  payer?: string,
  payAsUsed = false,
): Promise<Outcome> {
  const { endpoint } = call;
  let used: bigint | undefined;
  const cacheKey = endpoint.cacheTtl ? `cache:${endpoint.name}:${stableJson(input)}` : undefined;
  const hit = cacheKey ? await rt.store.get<Cached>(cacheKey) : undefined;
  if (hit) return answer(endpoint, hit.data, hit.sources, true);

  const sources = new Set<string>();
  // The deadline's signal is made only for a handler that reads it (an AbortSignal costs ~7 µs to make, more than
  // the timer): the call itself ends at the deadline whether or not it was made.
  let expired: unknown;
  let deadline: AbortController | undefined;
  let signal: AbortSignal | undefined;
  const signalOf = () => {
    if (signal) return signal;
    deadline = new AbortController();
    if (expired) deadline.abort(expired);
    const caller = call.signal?.();
    signal = caller ? AbortSignal.any([caller, deadline.signal]) : deadline.signal;
    return signal;
  };
  let endsAtDeadline!: (reason: unknown) => void;
  const atDeadline = new Promise<never>((_, reject) => (endsAtDeadline = reject));
  const timer = setTimeout(() => {
    expired = new DOMException("deadline passed", "TimeoutError");
    deadline?.abort(expired);
    endsAtDeadline(expired);
  }, endpoint.timeoutMs ?? rt.config.handlerTimeoutMs);
  const family = rt.families.get(endpoint.family);
  // The call's child logger is made when the handler first logs (most never do): pino's child costs ~7 µs a call.
  let log: EndpointContext<unknown>["log"] | undefined;
  const ctx: EndpointContext<unknown> = {
    input,
    settings: family?.settings,
    credits: creditIssuer(rt, payer),
    holdings: holdingsOf(rt),
    baseUrl: rt.config.baseUrl,
    store: rt.store,
    get log() {
      log ??= rt.log.child({ endpoint: endpoint.name, reqId: call.requestId });
      return log;
    },
    get signal() {
      return signalOf();
    },
    payer,
    wallet: call.wallet,
    clientIp: call.clientIp,
    headers: call.headers ?? new Headers(),
    catalog: rt.endpoints,
    now: rt.now,
    call: (name, partInput) => callPart(rt, call, unit, name, partInput, { payer, signal: signalOf() }),
    reserve: (key, value, ttlMs) => reserve(rt.store, unit, key, value, ttlMs),
    afterPayment: (write: (() => Promise<unknown>) | StoreWrite, undo?: () => Promise<unknown>) => {
      if (!unit.closed)
        unit.writes.push(typeof write === "function" ? { apply: write, undo } : dataWrite(rt.store, write));
    },
    answerWhenPaid: (render) => {
      unit.answerWhenPaid = render as Unit["answerWhenPaid"];
    },
    payAsUsed,
    use: (atomic) => {
      if (payAsUsed) used = atomic;
    },
    instance: rt.instance,
    egress: endpoint.probes
      ? {
          fetch: (url, init) => rt.egress.fetch(url, { ...init, signal: signalOf() }),
          check: (url) => rt.egress.check(url, signalOf()),
        }
      : undeclaredEgress(endpoint),
    upstream(name) {
      if (!(endpoint.upstreams?.includes(name) || endpoint.optionalUpstreams?.includes(name)) || !family)
        throw new Error(`${endpoint.name} calls undeclared upstream ${name}`);
      return family.upstream(name, { signal: signalOf(), onCall: (used: string) => sources.add(used) });
    },
  };
  const ends = [Promise.resolve().then(() => endpoint.handler(ctx)), atDeadline];
  const leaving = hungUp(call);
  if (leaving) ends.push(leaving);
  const data = await Promise.race(ends).finally(() => {
    clearTimeout(timer);
    // What a handler still running past its deadline reserves or writes later is refused.
    unit.closed = true;
  });
  const checked = v.safeParse(endpoint.output, data);
  if (!checked.success) {
    ctx.log.error(
      { issues: checked.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`) },
      "handler output failed its schema",
    );
    throw new ServiceError(502, "invalid_output", "The answer did not match its documented shape");
  }
  if (cacheKey)
    await rt.store.set(cacheKey, { data: checked.output, sources: [...sources] }, endpoint.cacheTtl! * 1000);
  const outcome = answer(endpoint, checked.output, [...sources], false);
  return used === undefined ? outcome : { ...outcome, used: String(used) };
}

/**
 * A part of a paid call (a batch item, a bundle part): validated and run on the same payer and signal, not charged
 * again. Its reservations and writes are a unit of its own, kept with its parent's when it answered in time.
 */
async function callPart(
  rt: Runtime,
  parent: Call,
  unit: Unit,
  nameOrPath: string,
  input: unknown,
  of: { payer?: string; signal: AbortSignal },
) {
  const endpoint = rt.endpoints.find((e) => (nameOrPath.startsWith("/") ? e.path : e.name) === nameOrPath);
  if (!endpoint)
    return failure(
      rt,
      parent,
      new ServiceError(503, "part_unavailable", `${nameOrPath} is not loaded on this deployment`),
    );
  const part = partOf(unit);
  const outcome = await invoke(rt, {
    ...parent,
    endpoint,
    input,
    resource: rt.config.baseUrl + endpoint.path,
    prepaid: { payer: of.payer },
    signal: () => of.signal,
    payment: undefined,
    unit: part.unit,
  });
  // A part that answers after its parent has answered (past a bundle's deadline) was reported failed: nothing of it is kept.
  if (!unit.closed) part.answered = outcome.status < 400;
  return { status: outcome.status, body: outcome.body };
}

/** Credit codes in money strings, over the ledger's atomic USDC units; a code a paid call issues is its payer's. */
export const creditIssuer = (rt: Runtime, payer?: string): CreditIssuer => ({
  issue: (amount, reason) => rt.credits.issue(BigInt(toAtomicAmount(amount, 6)), reason, payer),
  fund: (code, amount) => rt.credits.fund(code, BigInt(toAtomicAmount(amount, 6))),
});

/** What a runtime's handlers read of a wallet's holdings: one object per runtime, not one per call. */
const holdings = new WeakMap<Runtime, Holdings>();
const holdingsOf = (rt: Runtime): Holdings => {
  let of = holdings.get(rt);
  if (!of) {
    of = {
      credits: (wallet) => rt.credits.issuedTo(wallet),
      channels: async (wallet) => (await rt.payments.channels?.(wallet)) ?? [],
    };
    holdings.set(rt, of);
  }
  return of;
};

/** The egress of an endpoint that declared no probes: it refuses, and is made once per endpoint. */
const refusals = new WeakMap<Endpoint, EndpointContext<unknown>["egress"]>();
const undeclaredEgress = (endpoint: Endpoint) => {
  let egress = refusals.get(endpoint);
  if (!egress) {
    const refuse = (): never => {
      throw new Error(`${endpoint.name} reaches caller-supplied targets without declaring probes: true`);
    };
    egress = { fetch: refuse, check: refuse };
    refusals.set(endpoint, egress);
  }
  return egress;
};

function answer(endpoint: Endpoint, data: unknown, sources: string[], cached: boolean): Outcome {
  if (endpoint.raw) return { status: 200, body: data, headers: {} };
  const meta: Record<string, unknown> = {
    product: endpoint.family,
    endpoint: endpoint.name,
    ts: new Date().toISOString(),
  };
  if (sources.length) meta.sources = sources;
  if (cached) meta.cached = true;
  return { status: 200, body: { meta, data }, headers: {} };
}

/** A free call's caller leaving ends it (a paid call has no caller signal: it runs to its end once paid for). */
function hungUp(call: Call): Promise<never> | undefined {
  const caller = call.signal?.();
  if (!caller) return undefined;
  if (caller.aborted) return Promise.reject(caller.reason);
  return new Promise<never>((_, reject) =>
    caller.addEventListener("abort", () => reject(caller.reason), { once: true }),
  );
}

function failure(rt: Runtime, call: Call, error: unknown): Outcome {
  const e = toServiceError(error);
  if (e.status >= 500 && !(error instanceof ServiceError)) {
    rt.log.error({ err: error, endpoint: call.endpoint.name, reqId: call.requestId }, "call failed");
  }
  return { status: e.status, body: toErrorBody(e), headers: { ...e.headers } };
}
