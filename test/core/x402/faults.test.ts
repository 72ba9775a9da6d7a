import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import * as v from "valibot";
import { privateKeyToAccount } from "viem/accounts";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { createReconciler } from "../../../core/payment/reconcile.ts";
import { x402Fates } from "../../../core/x402/schemes.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";
import { testUpstreams } from "../runtime/_upstreams.ts";

/**
 * End to end with real payments on one devnet: whatever part breaks (an upstream, the facilitator,
 * Redis), the payer's balance moves only for answers delivered, and calls that do not need the broken part
 * still answer and are charged once.
 */
type Paid = Awaited<ReturnType<typeof startPaidService>>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const price = 1000n; // $0.001 in USDC's six decimals: the probe and both fault endpoints
const healthy = "/v1/probe?echo=unaffected";

// The upstream: a local server whose behaviour each test chooses.
type UpstreamFault = "none" | "fails" | "hangs" | "invalid-json" | "wrong-shape";
let upstreamFault: UpstreamFault = "none";
const upstreamReplies: Record<UpstreamFault, (res: ServerResponse) => void> = {
  none: (res) => json(res, 200, { amount: 1, base: "EUR", date: "2025-01-14", rates: { USD: 1.0245 } }),
  // Retry-After: 0 lets the client's retries run inside the handler's short deadline.
  fails: (res) => json(res, 500, { message: "internal error" }, { "retry-after": "0" }),
  hangs: () => {},
  "invalid-json": (res) => res.writeHead(200, { "content-type": "application/json" }).end("<html>Bad gateway</html>"),
  "wrong-shape": (res) => json(res, 200, { message: "not found" }),
};
const json = (res: ServerResponse, status: number, body: unknown, headers = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
let upstreamRequests = 0;
const upstream = createServer((_req, res) => {
  upstreamRequests++;
  upstreamReplies[upstreamFault](res);
});

const rates = defineEndpoint({
  name: "fault-rates",
  method: "GET",
  price: "$0.001",
  summary: "Reference rates through the frankfurter upstream, with a short deadline",
  input: v.object({}),
  output: v.object({ base: v.string(), date: v.string(), rates: v.record(v.string(), v.number()) }),
  example: { input: {}, output: { base: "EUR", date: "2025-01-14", rates: { USD: 1.0245 } } },
  upstreams: ["frankfurter"],
  timeoutMs: 600,
  async handler({ upstream }) {
    const day = await upstream("frankfurter").json<{ base: string; date: string; rates: Record<string, number> }>(
      "/v1/latest",
    );
    return { base: day.base, date: day.date, rates: day.rates };
  },
});

/** Long enough for a test to break the store between the payment's claim and its settlement. */
const slow = defineEndpoint({
  name: "fault-slow",
  method: "GET",
  price: "$0.001",
  summary: "Answers after half a second",
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: async ({ signal }) => {
    await sleep(500, undefined, { signal });
    return { ok: true };
  },
});

const faultPlugin = definePlugin({
  family: "faults",
  endpoints: [rates, slow],
  upstreams: { frankfurter: testUpstreams.frankfurter },
});

// The facilitator: the real one, broken the way each test chooses.
type FacilitatorFault =
  | "none"
  | "verify-invalid"
  | "verify-throws"
  | "settle-fails"
  | "settle-times-out-after-transfer"
  | "settle-times-out";
let facilitatorFault: FacilitatorFault = "none";
/** Runs once between a successful settlement and the gate recording it. */
let afterSettling: (() => Promise<void>) | undefined;
const timedOut = () => Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });
const faulty = (real: Facilitator): Facilitator => ({
  async verify(payload, requirements) {
    if (facilitatorFault === "verify-invalid")
      return { isValid: false, invalidReason: "invalid_exact_evm_payload_signature" };
    if (facilitatorFault === "verify-throws") throw new Error("connect ECONNREFUSED facilitator");
    return real.verify(payload, requirements);
  },
  async settle(payload, requirements) {
    if (facilitatorFault === "settle-fails")
      return {
        success: false,
        errorReason: "invalid_exact_evm_transaction_failed",
        transaction: "",
        network: "eip155:84532",
      };
    if (facilitatorFault === "settle-times-out") throw timedOut();
    if (facilitatorFault === "settle-times-out-after-transfer") {
      await real.settle(payload, requirements);
      throw timedOut();
    }
    const settled = await real.settle(payload, requirements);
    const hook = afterSettling;
    afterSettling = undefined;
    await hook?.();
    return settled;
  },
});

let devnet: Devnet;
let chain: ReturnType<typeof chainReader>;
let service: Paid;

before(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  devnet = await startDevnet();
  chain = chainReader(devnet);
  const env = { UPSTREAM_FRANKFURTER_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` };
  service = await startPaidService(devnet, { plugins: [probePlugin, faultPlugin], facilitator: faulty, env });
});

after(async () => {
  await service?.close();
  upstream.closeAllConnections();
  upstream.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);

async function pay(target: Paid, path: string) {
  const required = await challengeOf(target.fetch, url(path));
  const { header } = await v2Header(payer(), required);
  return target.fetch(url(path), { headers: { "payment-signature": header } });
}

/** What the payer lost and the payee gained on-chain since the snapshot. */
async function snapshot() {
  const balances = () =>
    Promise.all([chain.balance(devnet.accounts.payer.address), chain.balance(devnet.accounts.payTo.address)]);
  const [payerBefore, payToBefore] = await balances();
  return async () => {
    const [payerAfter, payToAfter] = await balances();
    return { paid: payerBefore - payerAfter, received: payToAfter - payToBefore };
  };
}

/** A failing paid call and a healthy one sent together: the failure charges nothing, the healthy call the price once. */
async function duringFault(failing: string, status: number, code: string) {
  const moved = await snapshot();
  const requests = upstreamRequests;
  const [broken, fine] = await Promise.all([pay(service, failing), pay(service, healthy)]);
  assert.ok(upstreamRequests > requests, "the failure came from the upstream");
  assert.equal(broken.status, status);
  const body = await broken.json();
  assert.equal(body.error.code, code, JSON.stringify(body));
  assert.equal(broken.headers.get("payment-response"), null);
  assert.equal(fine.status, 200);
  assert.equal((await fine.json()).data.echo, "unaffected");
  assert.ok(fine.headers.get("payment-response"), "the healthy call carries its settlement receipt");
  assert.deepEqual(await moved(), { paid: price, received: price }, "only the delivered answer was charged");
}

/** During a facilitator fault, a call paid by credit (which needs no facilitator) answers and is charged once. */
async function creditCallWorks() {
  const code = await service.credits.issue(3n * price, "test");
  const res = await service.fetch(url(healthy), { headers: { "x-credit-code": code } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).data.echo, "unaffected");
  assert.equal(await service.credits.balance(code), 2n * price, "charged exactly once");
}

test("with nothing broken, the upstream-backed route answers and is charged once", async () => {
  upstreamFault = "none";
  const moved = await snapshot();
  const res = await pay(service, "/v1/fault-rates");
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).data, { base: "EUR", date: "2025-01-14", rates: { USD: 1.0245 } });
  assert.deepEqual(await moved(), { paid: price, received: price });
});

test("an upstream answering 500: 502, nothing charged; the route without it answers and is charged once", async () => {
  upstreamFault = "fails";
  await duringFault("/v1/fault-rates", 502, "upstream_error");
});

test("an upstream that hangs past the handler deadline: 504, nothing charged; the other route answers", async () => {
  upstreamFault = "hangs";
  await duringFault("/v1/fault-rates", 504, "timeout");
});

test("an upstream answering invalid JSON: 502, nothing charged; the other route answers", async () => {
  upstreamFault = "invalid-json";
  await duringFault("/v1/fault-rates", 502, "upstream_error");
});

test("an upstream answering JSON of the wrong shape: 502 invalid_output, nothing charged; the other route answers", async () => {
  upstreamFault = "wrong-shape";
  await duringFault("/v1/fault-rates", 502, "invalid_output");
  upstreamFault = "none";
});

async function refusedByFacilitator(fault: FacilitatorFault, reason: RegExp) {
  facilitatorFault = fault;
  try {
    const moved = await snapshot();
    const res = await pay(service, "/v1/probe?echo=secret");
    assert.equal(res.status, 402);
    const text = await res.text();
    assert.doesNotMatch(text, /secret/, "the answer is withheld");
    assert.match(JSON.parse(text).reason, reason);
    await creditCallWorks();
    assert.deepEqual(await moved(), { paid: 0n, received: 0n });
  } finally {
    facilitatorFault = "none";
  }
}

test("a facilitator that refuses verification: 402, nothing moves; a call paid by credit answers", async () => {
  await refusedByFacilitator("verify-invalid", /invalid_exact_evm_payload_signature/);
});

test("a facilitator that throws during verification: 402, nothing moves; a call paid by credit answers", async () => {
  await refusedByFacilitator("verify-throws", /unexpected_verify_error/);
});

test("a facilitator that fails settlement: 402 without the body, nothing moves; a call paid by credit answers", async () => {
  await refusedByFacilitator("settle-fails", /transaction_failed/);
});

test("a settlement timing out after the transfer landed: the price is credited once by the reconciler", async () => {
  facilitatorFault = "settle-times-out-after-transfer";
  const moved = await snapshot();
  const res = await pay(service, "/v1/probe?echo=secret");
  assert.equal(res.status, 402);
  const body = await res.json();
  assert.equal(body.reason, "settlement_pending");
  assert.doesNotMatch(JSON.stringify(body), /secret/);
  await creditCallWorks();
  facilitatorFault = "none";
  assert.deepEqual(await moved(), { paid: price, received: price }, "the transfer landed");

  assert.equal(await service.credits.balance(body.creditCode), 0n);
  assert.deepEqual(await service.reconciler.reconcileOnce(), { credited: 1, dropped: 0, delivered: 0 });
  assert.equal(await service.credits.balance(body.creditCode), price, "the undelivered answer is owed back in full");
  assert.deepEqual(
    await service.reconciler.reconcileOnce(),
    { credited: 0, dropped: 0, delivered: 0 },
    "credited once only",
  );
  const spent = await service.fetch(url(healthy), { headers: { "x-credit-code": body.creditCode } });
  assert.equal(spent.status, 200);
  assert.deepEqual(await moved(), { paid: price, received: price }, "spending the credit moves nothing more");
});

test("a settlement timing out with no transfer: no credit, dropped once the authorization expires", async () => {
  facilitatorFault = "settle-times-out";
  const moved = await snapshot();
  const res = await pay(service, "/v1/probe?echo=secret");
  assert.equal(res.status, 402);
  const { reason, creditCode } = await res.json();
  assert.equal(reason, "settlement_pending");
  await creditCallWorks();
  facilitatorFault = "none";
  assert.deepEqual(
    await service.reconciler.reconcileOnce(),
    { credited: 0, dropped: 0, delivered: 0 },
    "still valid: keep waiting",
  );
  const anHourLater = createReconciler({
    store: service.store,
    fates: x402Fates(),
    ledger: service.ledger,
    credits: service.credits,
    rpcUrl: devnet.rpcUrl,
    log: service.runtime.log,
    now: () => Date.now() + 3600_000,
  });
  assert.deepEqual(await anHourLater.reconcileOnce(), { credited: 0, dropped: 1, delivered: 0 });
  assert.equal(await service.credits.balance(creditCode), 0n);
  assert.deepEqual(await moved(), { paid: 0n, received: 0n });
});

/** A paid service on its own Redis, for the tests that stop it. */
async function withRedis(work: (paid: Paid, redis: RedisServer, store: RedisStore) => Promise<void>) {
  const redis = await startRedis();
  const store = await createRedisStore(redis.url, pino({ level: "silent" }));
  const paid = await startPaidService(devnet, { plugins: [probePlugin, faultPlugin], store, facilitator: faulty });
  try {
    await work(paid, redis, store);
  } finally {
    await paid.close();
    await store.close();
    await redis.stop();
  }
}

async function untilAnswering(store: RedisStore) {
  const deadline = Date.now() + 10_000;
  while (
    !(await store.ping().then(
      () => true,
      () => false,
    )) &&
    Date.now() < deadline
  )
    await sleep(50);
}

test("Redis stopping before a call or while one runs: 503 with Retry-After and nothing moves; then payments work again", {
  skip: redisMissing,
}, async () => {
  await withRedis(async (paid, redis, store) => {
    const moved = await snapshot();
    const running = pay(paid, "/v1/fault-slow");
    await sleep(250); // claimed, the handler running
    await redis.restart(async () => {
      const res = await running;
      assert.equal(res.status, 503);
      assert.equal((await res.json()).error.code, "unavailable");
      assert.ok(Number(res.headers.get("retry-after")) > 0);
      // A new call is refused before any payment work: not even a 402 to sign.
      const before = await paid.fetch(url(healthy));
      assert.equal(before.status, 503);
      assert.equal((await before.json()).error.code, "store_unavailable");
      assert.ok(Number(before.headers.get("retry-after")) > 0);
      assert.deepEqual(await moved(), { paid: 0n, received: 0n }, "nothing moved while the store was down");
    });
    await untilAnswering(store);
    const again = await pay(paid, healthy);
    assert.equal(again.status, 200);
    assert.deepEqual(await moved(), { paid: price, received: price }, "the new payment is charged once");
  });
});

test("Redis stopping while the facilitator settles: the money moved, so the answer is delivered", {
  skip: redisMissing,
}, async () => {
  await withRedis(async (paid, redis, store) => {
    const moved = await snapshot();
    let restarted: Promise<void> | undefined;
    let stopped!: () => void;
    let answered!: () => void;
    const isDown = new Promise<void>((resolve) => (stopped = resolve));
    const hasAnswered = new Promise<void>((resolve) => (answered = resolve));
    afterSettling = () => {
      restarted = redis.restart(async () => {
        stopped();
        await hasAnswered;
      });
      return isDown;
    };
    const res = await pay(paid, "/v1/probe?echo=delivered");
    assert.equal(res.status, 200);
    assert.equal((await res.json()).data.echo, "delivered");
    answered();
    assert.ok(res.headers.get("payment-response"));
    assert.deepEqual(await moved(), { paid: price, received: price });
    await restarted;
    await untilAnswering(store);
  });
});
