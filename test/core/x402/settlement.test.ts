import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";

let devnet: Devnet;
let chain: ReturnType<typeof chainReader>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
});
after(() => devnet?.stop());

async function pay(service: Awaited<ReturnType<typeof startPaidService>>, path: string) {
  const required = await challengeOf(service.fetch, url(path));
  const { header } = await v2Header(payer(), required);
  return service.fetch(url(path), { headers: { "payment-signature": header } });
}

test("a settlement that fails withholds the body and charges nothing", async () => {
  const failing = (real: Facilitator): Facilitator => ({
    verify: real.verify,
    settle: async () => ({
      success: false,
      errorReason: "invalid_exact_evm_transaction_failed",
      transaction: "",
      network: "eip155:84532",
    }),
  });
  const service = await startPaidService(devnet, { plugins: [probePlugin], facilitator: failing });
  const before = await chain.balance(devnet.accounts.payTo.address);
  const res = await pay(service, "/v1/probe?echo=secret");
  assert.equal(res.status, 402);
  const text = await res.text();
  assert.doesNotMatch(text, /secret/);
  assert.match(JSON.parse(text).reason, /transaction_failed/);
  assert.equal(await chain.balance(devnet.accounts.payTo.address), before);
  await service.close();
});

test("a facilitator that times out after the money moved: reconciled into a credit the payer can spend", async () => {
  const timingOut = (real: Facilitator): Facilitator => ({
    verify: real.verify,
    async settle(payload, requirements) {
      await real.settle(payload, requirements);
      throw Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });
    },
  });
  const service = await startPaidService(devnet, { plugins: [probePlugin], facilitator: timingOut });
  const before = await chain.balance(devnet.accounts.payTo.address);
  const res = await pay(service, "/v1/probe?echo=late");
  assert.equal(res.status, 402);
  const body = await res.json();
  assert.equal(body.reason, "settlement_pending");
  assert.match(body.creditCode, /^cr_/);
  assert.equal((await chain.balance(devnet.accounts.payTo.address)) - before, 1000n, "the transfer did land");
  assert.equal(await service.credits.balance(body.creditCode), 0n, "nothing is credited before reconciliation");

  const result = await service.reconciler.reconcileOnce();
  assert.deepEqual(result, { credited: 1, dropped: 0, delivered: 0 });
  assert.equal(await service.credits.balance(body.creditCode), 1000n);
  assert.deepEqual(
    await service.reconciler.reconcileOnce(),
    { credited: 0, dropped: 0, delivered: 0 },
    "reconciled once only",
  );

  const spent = await service.fetch(url("/v1/probe?echo=credit"), { headers: { "x-credit-code": body.creditCode } });
  assert.equal(spent.status, 200);
  assert.equal((await spent.json()).data.echo, "credit");
  assert.equal(spent.headers.get("x-credit-balance"), "0");
  const empty = await service.fetch(url("/v1/probe?echo=again"), { headers: { "x-credit-code": body.creditCode } });
  assert.equal(empty.status, 402);
  assert.equal((await empty.json()).reason, "credit_insufficient");
  await service.close();
});

test("a timeout where nothing moved is dropped once the authorization expires", async () => {
  let clock = Date.now();
  const neverSettles = (real: Facilitator): Facilitator => ({
    verify: real.verify,
    settle: async () => {
      throw new Error("timeout");
    },
  });
  const service = await startPaidService(devnet, { plugins: [probePlugin], facilitator: neverSettles });
  const res = await pay(service, "/v1/probe?echo=lost");
  const { creditCode } = await res.json();
  assert.deepEqual(
    await service.reconciler.reconcileOnce(),
    { credited: 0, dropped: 0, delivered: 0 },
    "still valid: keep waiting",
  );
  const { createReconciler } = await import("../../../core/payment/reconcile.ts");
  const { x402Fates } = await import("../../../core/x402/schemes.ts");
  const later = createReconciler({
    fates: x402Fates(),
    store: service.store,
    ledger: service.ledger,
    credits: service.credits,
    rpcUrl: devnet.rpcUrl,
    log: service.runtime.log,
    now: () => (clock += 3600_000),
  });
  assert.deepEqual(await later.reconcileOnce(), { credited: 0, dropped: 1, delivered: 0 });
  assert.equal(await service.credits.balance(creditCode), 0n);
  await service.close();
});

test("credits never go below zero under concurrent spending", async () => {
  const service = await startPaidService(devnet, { plugins: [probePlugin] });
  const code = await service.credits.issue(3000n, "test");
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      service.fetch(url(`/v1/probe?echo=${i}`), { headers: { "x-credit-code": code } }),
    ),
  );
  assert.equal(responses.filter((r) => r.status === 200).length, 3);
  assert.equal(responses.filter((r) => r.status === 402).length, 7);
  assert.equal(await service.credits.balance(code), 0n);
  await service.close();
});

test("a failed call paid by credit gives the credit back", async () => {
  const service = await startPaidService(devnet, { plugins: [probePlugin] });
  const code = await service.credits.issue(1000n, "test");
  const res = await service.fetch(url("/v1/probe?outcome=upstream"), { headers: { "x-credit-code": code } });
  assert.equal(res.status, 502);
  assert.equal(await service.credits.balance(code), 1000n);
  await service.close();
});
