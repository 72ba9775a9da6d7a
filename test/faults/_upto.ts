import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { UptoEvmScheme as UptoClient } from "@x402/evm/upto/client";
import { x402Client } from "@x402/fetch";
import { createPublicClient, http } from "viem";
import { encodeHeader } from "../../core/x402/challenge.ts";
import { accountOf } from "../helpers/rail.ts";
import { redisMissing } from "../helpers/redis.ts";
import { newPaymentId } from "../helpers/sign.ts";
import {
  blockNow,
  charged,
  creditsFunded,
  freshPort,
  retryUntilFinished,
  send,
  startInstance,
  startRig,
  stepsReached,
  type Instance,
  type Rig,
  type Step,
} from "./_rig.ts";
import { assertBalanced } from "./_scenario.ts";
import { when } from "./_steps.ts";

/** Upto on; a batch of one hash is a pay-as-used route, the route upto pays. */
const uptoEnv = { X402_UPTO: "on" };
const batchPath = (text: string) =>
  `/v1/batch?calls=${encodeURIComponent(JSON.stringify([{ path: "/v1/hash", params: { text, algo: "sha256" } }]))}`;

/**
 * A batch's answer is not kept in a write-ahead record (its effects are closures): a payment whose money moved is
 * finished with its price credited to the record's code, which the payer's retry gets.
 */
const expected: Record<Step, { charged: number; answers: number; credits: number }> = {
  claimed: { charged: 0, answers: 0, credits: 0 },
  handled: { charged: 0, answers: 0, credits: 0 },
  "written-ahead": { charged: 0, answers: 0, credits: 0 },
  settled: { charged: 1, answers: 0, credits: 1 },
  "effects-applied": { charged: 1, answers: 0, credits: 1 },
};

/** An upto (Permit2) payment signed by the real client, with the payer's payment identifier. */
async function signedUpto(rig: Rig, instance: Instance, index: number, path: string) {
  const account = accountOf(rig.devnet, index);
  const reader = createPublicClient({ transport: http(rig.devnet.rpcUrl) });
  const client = new x402Client().register(rig.devnet.network, new UptoClient(toClientEvmSigner(account, reader)));
  client.setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "upto"));
  const res = await fetch(instance.url + path);
  const required = JSON.parse(
    Buffer.from(res.headers.get("payment-required")!, "base64").toString(),
  ) as PaymentRequired;
  const payload = await client.createPaymentPayload(required);
  const extensions = { ...payload.extensions, "payment-identifier": { info: { required: false, id: newPaymentId() } } };
  return { account, call: { path, header: encodeHeader({ ...payload, extensions }), nonce: "" } };
}

/**
 * One test per step: an upto-paid batch whose instance is killed with SIGKILL there, retried (same permit, same
 * payment identifier) at the same instance restarted or at a second one on the same Redis. Charged = answered +
 * credited; the handler run at most once; no double transfer.
 */
export function uptoCrashTests(steps: Step[], finishedBy: "restart" | "other") {
  let rig: Rig;
  let survivor: Instance | undefined;
  before(async () => {
    if (redisMissing) return;
    rig = await startRig();
    if (finishedBy === "other") survivor = await startInstance(rig, await freshPort(), undefined, uptoEnv);
  });
  after(async () => {
    await survivor?.stop();
    await rig?.stop();
  });
  const how = finishedBy === "restart" ? "restarted" : "the other instance finishes";
  steps.forEach((step, i) => {
    test(`upto killed ${when[step]}; ${how}: charged = answered + credited`, { skip: redisMissing }, async () => {
      const started: Instance[] = [];
      try {
        const first = await startInstance(rig, await freshPort(), step, uptoEnv);
        started.push(first);
        const from = await blockNow(rig.devnet);
        const { account, call } = await signedUpto(rig, first, i, batchPath(`upto-${step}`));
        assert.equal(await send(first, call), undefined, `the instance died at ${step} before answering`);
        assert.equal(await first.exited, "SIGKILL");
        const other = survivor ?? (await startInstance(rig, first.port, undefined, uptoEnv));
        if (!survivor) started.push(other);
        const last = await retryUntilFinished(other, call);
        if (last?.status === 402) assert.equal(last.body.reason, "permit2_deadline_expired");
        else if (last?.status === 409 && last.body.error.details?.creditCode === undefined)
          assert.match(last.body.error.message, /nothing was charged|not charged/);
        else if (last?.status === 409) assert.equal(last.body.error.code, "payment_already_used");
        else assert.equal(last?.status, 200, JSON.stringify(last?.body));
        const counts = {
          charged: (await charged(rig, account, from)).count,
          answers: last?.status === 200 ? 1 : 0,
          credits: await creditsFunded(rig, account),
        };
        assertBalanced({ ...counts, handlerRuns: 0, written: counts.charged - counts.credits });
        assert.deepEqual(counts, expected[step]);
        if (counts.credits) assert.ok(last?.body.error.details?.creditCode, "the retry names the credit code");
        const runs = await stepsReached(rig, "handled", account.address);
        assert.equal(runs, step === "claimed" ? 0 : 1, "the handler ran once at most");
        assert.equal(other.errors.length, 0, other.errors.join("\n"));
      } finally {
        await Promise.all(started.map((s) => s.stop()));
      }
    });
  });
}
