import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { createTestClient, http, type Hex } from "viem";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { createReconciler, type ReconcilerParts } from "../../../core/payment/reconcile.ts";
import { x402Fates } from "../../../core/x402/schemes.ts";
import { startDevnet, type Devnet } from "../../helpers/paid.ts";
import {
  accountOf,
  blockNow,
  cancelOnChain,
  payProbe,
  spendNonceElsewhere,
  startInstance,
  transfersTo,
} from "../../helpers/rail.ts";

/**
 * A call answered settlement_pending leaves its authorization for the reconciler. authorizationState turns
 * true when the payer cancels it, or spends its nonce on another transfer, as well as when our transfer
 * lands: only the landed transfer may fund the credit code, and only once.
 */
const price = 1000n;
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startInstance>>;
/**
 * "lands": the transfer is sent and lands, and then the settlement is reported timed out. "unsent": the settlement
 * times out before anything reaches the node (a send the relayer lost for good; one it only lost on the way it
 * sends again, and that one lands).
 */
let settling: "normal" | "lands" | "unsent" = "normal";
const timedOut = () => Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });

const landsThenTimesOut = (local: Facilitator): Facilitator => ({
  verify: local.verify,
  async settle(payload, requirements) {
    if (settling === "unsent") throw timedOut();
    const settled = await local.settle(payload, requirements);
    if (settling === "lands") throw timedOut();
    return settled;
  },
});

before(async () => {
  devnet = await startDevnet();
  service = await startInstance(devnet, {
    confirmationTimeoutMs: 3000,
    facilitator: landsThenTimesOut,
  });
});

after(async () => {
  await service?.close();
  await devnet?.stop();
});

const reconciler = (more: Partial<ReconcilerParts> = {}) =>
  createReconciler({
    store: service.store,
    ledger: service.ledger,
    credits: service.credits,
    rpcUrl: devnet.rpcUrl,
    fates: x402Fates(),
    log: pino({ level: "silent" }),
    ...more,
  });

/** A paid call whose settlement never reaches the node: settlement_pending. */
async function pendingWithNothingSent(payer: ReturnType<typeof accountOf>) {
  settling = "unsent";
  try {
    const { res, body, authorization } = await payProbe(service, payer, "pending");
    assert.equal(res.status, 402);
    assert.equal(body.reason, "settlement_pending");
    return { creditCode: body.creditCode as string, nonce: authorization.nonce as Hex };
  } finally {
    settling = "normal";
  }
}

async function pendingAfterLanding(payer: ReturnType<typeof accountOf>) {
  settling = "lands";
  try {
    const { body } = await payProbe(service, payer, "landed");
    assert.equal(body.reason, "settlement_pending");
    return body.creditCode as string;
  } finally {
    settling = "normal";
  }
}

const pendingOf = async (creditCode: string) =>
  (await service.ledger.pendingSettlements()).filter((r) => r.creditCode === creditCode).length;

test("reconcile: an authorization the payer cancelled on-chain funds 0 and is dropped", async () => {
  const payer = accountOf(devnet, 0);
  const from = (await blockNow(devnet)) + 1n;
  const { creditCode, nonce } = await pendingWithNothingSent(payer);
  await cancelOnChain(devnet, payer, nonce);
  assert.deepEqual(await reconciler().reconcileOnce(), { credited: 0, dropped: 1, delivered: 0 });
  assert.equal(await service.credits.balance(creditCode), 0n);
  assert.equal(await pendingOf(creditCode), 0);
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 0,
    value: 0n,
  });
});

test("reconcile: a nonce the payer spent on another transfer (1 unit to payTo) funds 0 and is dropped", async () => {
  const payer = accountOf(devnet, 1);
  const from = (await blockNow(devnet)) + 1n;
  const { creditCode, nonce } = await pendingWithNothingSent(payer);
  await spendNonceElsewhere(devnet, payer, nonce, devnet.accounts.payTo.address, 1n);
  assert.deepEqual(await reconciler().reconcileOnce(), { credited: 0, dropped: 1, delivered: 0 });
  assert.equal(await service.credits.balance(creditCode), 0n);
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 1,
    value: 1n,
  });
});

test("reconcile: an unused authorization funds 0: kept while valid, dropped once expired", async () => {
  const payer = accountOf(devnet, 2);
  const { creditCode } = await pendingWithNothingSent(payer);
  assert.deepEqual(await reconciler().reconcileOnce(), { credited: 0, dropped: 0, delivered: 0 });
  assert.equal(await pendingOf(creditCode), 1);
  assert.deepEqual(await reconciler({ now: () => Date.now() + 3600_000 }).reconcileOnce(), {
    credited: 0,
    dropped: 1,
    delivered: 0,
  });
  assert.equal(await service.credits.balance(creditCode), 0n);
});

test("reconcile: a landed transfer funds exactly the price, once over repeated passes", async () => {
  const payer = accountOf(devnet, 3);
  const from = (await blockNow(devnet)) + 1n;
  const creditCode = await pendingAfterLanding(payer);
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 1,
    value: price,
  });
  assert.deepEqual(await reconciler().reconcileOnce(), { credited: 1, dropped: 0, delivered: 0 });
  assert.deepEqual(await reconciler().reconcileOnce(), { credited: 0, dropped: 0, delivered: 0 });
  assert.equal(await service.credits.balance(creditCode), price);
});

test("reconcile: a landed transfer older than the log window is kept, not dropped, and funded by a wider window", async () => {
  const payer = accountOf(devnet, 4);
  const creditCode = await pendingAfterLanding(payer);
  await createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) }).mine({ blocks: 5 });
  const narrow = reconciler({ fates: x402Fates({ chunkBlocks: 2n, maxBlocks: 4n }) });
  assert.deepEqual(await narrow.reconcileOnce(), { credited: 0, dropped: 0, delivered: 0 });
  assert.equal(await pendingOf(creditCode), 1, "still pending");
  assert.deepEqual(await reconciler().reconcileOnce(), { credited: 1, dropped: 0, delivered: 0 });
  assert.equal(await service.credits.balance(creditCode), price);
});
