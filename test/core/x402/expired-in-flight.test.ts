import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { generateKeyPairSigner } from "@solana/kit";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { svmLifetimeSeconds } from "../../../core/x402/schemes/exact-svm/bind.ts";
import { createReconciler } from "../../../core/payment/reconcile.ts";
import { x402Fates } from "../../../core/x402/schemes.ts";
import {
  startDevnet,
  startPaidService,
  startSolanaDevnet,
  type Devnet,
  type SolanaDevnet,
} from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { challengeOf, newPaymentId, toHeader } from "../../helpers/sign.ts";

/**
 * A payment whose write-ahead record is unresolved (its settlement hangs, as if its process had died after writing
 * ahead) and whose authorization has expired since. Until its fate is read from the chain the payer's retry is told
 * it is in progress: it may have landed, and "expired" would send the payer to pay again. An expired authorization's
 * fate is final, so the resolver takes its record at once rather than after `resolveAfterMs`; the retry then learns
 * nothing was charged. Solana's is the case that needs it: its binding takes a transaction at any age (its
 * blockhash bounds it on-chain).
 */
let evm: Devnet;
let solana: SolanaDevnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let skewMs = 0;
let release: () => void = () => {};
const settles = { count: 0 };
const url = (path: string) => `http://127.0.0.1:4021${path}`;

const hanging = (real: Facilitator): Facilitator => ({
  verify: (payload, requirements) => real.verify(payload, requirements),
  async settle(_payload, requirements) {
    settles.count++;
    // Never sent: the call waits here, its record written ahead, as a process that died would leave it.
    await new Promise<void>((resolve) => (release = resolve));
    return {
      success: false,
      errorReason: "released",
      transaction: "",
      network: String((requirements as { network: string }).network),
    };
  },
});

before(async () => {
  [evm, solana] = await Promise.all([startDevnet(), startSolanaDevnet()]);
  service = await startPaidService(evm, {
    plugins: [probePlugin],
    solana,
    facilitator: hanging,
    now: () => Date.now() + skewMs,
  });
});
after(async () => {
  release();
  await service?.close();
  await Promise.all([evm?.stop(), solana?.stop()]);
});

test("a payment in flight whose authorization expired: its retry is in progress until the resolver, which takes it at once, reads it unmoved; then refused as uncharged, nothing charged", async () => {
  const signer = await generateKeyPairSigner();
  await solana.fund(signer.address, 10_000n);
  const path = "/v1/probe?echo=expired";
  const required = await challengeOf(service.fetch, url(path));
  const accepted = required.accepts.find((a: { network: string }) => a.network === solana.network);
  const { payload } = await new ExactSvmScheme(signer, { rpcUrl: solana.rpcUrl }).createPaymentPayload(2, accepted);
  const extensions = { "payment-identifier": { info: { required: false, id: newPaymentId() } } };
  const header = toHeader({ x402Version: 2, resource: required.resource, accepted, payload, extensions });
  const send = async () => {
    const res = await service.fetch(url(path), { headers: { "payment-signature": header } });
    return { status: res.status, body: await res.json() };
  };
  const runsBefore = handlerRuns.count;

  const first = send();
  while (settles.count === 0) await new Promise((r) => setTimeout(r, 20));
  const waiting = await send();
  assert.equal(waiting.status, 409);
  assert.equal(waiting.body.error.code, "settlement_in_progress");

  skewMs = (svmLifetimeSeconds + 1) * 1000;
  const stillWaiting = await send();
  assert.equal(stillWaiting.status, 409, JSON.stringify(stillWaiting.body));
  assert.equal(stillWaiting.body.error.code, "settlement_in_progress");

  // The resolver (any instance's) finds the record and asks the chain: its blockhash expired unused.
  solana.node.skipMinute();
  const resolver = createReconciler({
    store: service.store,
    fates: x402Fates(),
    ledger: service.ledger,
    credits: service.credits,
    rpcUrls: { [solana.network]: solana.rpcUrl },
    log: pino({ level: "silent" }),
    now: () => Date.now() + skewMs,
  });
  const tally = await resolver.reconcileOnce();
  assert.equal(tally.dropped, 1, "the record resolved: nothing moved");
  assert.deepEqual(await service.ledger.inFlights(), []);
  const settled = await send();
  assert.equal(settled.status, 409, JSON.stringify(settled.body));
  assert.match(settled.body.error.message, /not charged/);
  release();
  assert.equal((await first).status, 402);
  assert.equal(handlerRuns.count - runsBefore, 1, "the handler ran once");
  assert.equal(settles.count, 1, "one settlement attempted, none sent");
  assert.equal(await solana.balance(signer.address), 10_000n, "nothing charged");
});
