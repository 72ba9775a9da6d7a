import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { PaymentRequired } from "@x402/core/types";
import type { x402Client } from "@x402/fetch";
import { stateKeys } from "../../plugins/state/_wallet.ts";
import { encodeHeader } from "../../core/x402/challenge.ts";
import { permit2Token } from "../helpers/permit2.ts";
import { accountOf } from "../helpers/rail.ts";
import { redisMissing } from "../helpers/redis.ts";
import { newPaymentId } from "../helpers/sign.ts";
import {
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
import { assertBalanced, expected } from "./_scenario.ts";
import { when } from "./_steps.ts";

/** The service's one option: the devnet's test DAI (18 decimals, no EIP-3009), paid with `exact` through Permit2. */
const daiEnv = (rig: Rig) => ({
  X402_OPTIONS: "devnet-dai",
  X402_DEVNET_DAI_NETWORK: rig.devnet.network,
  X402_DEVNET_DAI_ASSET: rig.devnet.dai.address,
  X402_DEVNET_DAI_DECIMALS: "18",
  X402_DEVNET_DAI_TRANSFER_METHOD: "permit2",
  X402_DEVNET_DAI_RPC_URL: rig.devnet.rpcUrl,
});

/** An exact Permit2 payment signed by @x402/evm's own exact client, with the payer's payment identifier. */
async function signedPermit2(instance: Instance, client: x402Client, path: string) {
  const res = await fetch(instance.url + path);
  const required = JSON.parse(
    Buffer.from(res.headers.get("payment-required")!, "base64").toString(),
  ) as PaymentRequired;
  const payload = await client.createPaymentPayload(required);
  assert.ok("permit2Authorization" in payload.payload, "paid through Permit2");
  const extensions = { ...payload.extensions, "payment-identifier": { info: { required: false, id: newPaymentId() } } };
  return {
    call: { path, header: encodeHeader({ ...payload, extensions }), nonce: "" },
    price: BigInt(payload.accepted.amount),
  };
}

/**
 * One test per step: an exact Permit2 paid /v1/store call (test DAI) whose instance is killed with SIGKILL there,
 * so the settlement's outcome is known to no process; the payer retries (same permit, same payment identifier) at
 * the same instance restarted or at a second one on the same Redis, and the call is finished from the chain by the
 * reconciliation pass (Permit2's nonce bitmap, the exact proxy's settle). Charged = answered + credited; one
 * Transfer of exactly the price or none; the handler run once; the write applied once per paid answer.
 */
export function permit2CrashTests(steps: Step[], finishedBy: "restart" | "other") {
  let rig: Rig;
  let survivor: Instance | undefined;
  before(async () => {
    if (redisMissing) return;
    rig = await startRig();
    if (finishedBy === "other") survivor = await startInstance(rig, await freshPort(), undefined, daiEnv(rig));
  });
  after(async () => {
    await survivor?.stop();
    await rig?.stop();
  });
  const how = finishedBy === "restart" ? "restarted" : "the other instance finishes";
  steps.forEach((step, i) => {
    test(`exact-permit2 killed ${when[step]}; ${how}: charged = answered + credited`, {
      skip: redisMissing,
    }, async () => {
      const started: Instance[] = [];
      try {
        const account = accountOf(rig.devnet, i);
        const dai = permit2Token(rig.devnet, rig.devnet.dai.address);
        await dai.approvePermit2(account);
        const first = await startInstance(rig, await freshPort(), step, daiEnv(rig));
        started.push(first);
        const key = `permit2-${step}`;
        const { call, price } = await signedPermit2(first, dai.client(account), `/v1/store?key=${key}&value=v&ttl=600`);
        assert.equal(price % 10n ** 12n, 0n, "an 18-decimal price");
        assert.equal(await send(first, call), undefined, `the instance died at ${step} before answering`);
        assert.equal(await first.exited, "SIGKILL");
        const other = survivor ?? (await startInstance(rig, first.port, undefined, daiEnv(rig)));
        if (!survivor) started.push(other);
        const last = await retryUntilFinished(other, call, 60_000);
        if (last?.status === 402) assert.equal(last.body.reason, "permit2_deadline_expired");
        else if (last?.status === 409) assert.match(last.body.error.message, /nothing was charged|not charged/);
        else {
          assert.equal(last?.status, 200, JSON.stringify(last?.body));
          assert.equal(last?.headers.get("x-payment-replayed"), "true");
          assert.equal(last?.body.data.key, key);
        }
        const moved = await dai.transfersFrom(account.address);
        assert.ok(
          moved.every((value) => value === price),
          `each Transfer is exactly the price: ${moved}`,
        );
        const stored = await rig.store.get<{ version: number }>(stateKeys.value(account.address.toLowerCase(), key));
        const counts = {
          charged: moved.length,
          answers: last?.status === 200 ? 1 : 0,
          credits: await creditsFunded(rig, account),
          handlerRuns: await stepsReached(rig, "handled", account.address),
          ...(stored ? { written: stored.version } : {}),
        };
        assertBalanced(counts);
        const { handlerRuns, ...rest } = counts;
        assert.deepEqual(rest, expected[step]);
        assert.equal(handlerRuns, step === "claimed" ? 0 : 1, "the handler ran once at most");
        assert.equal(other.errors.length, 0, other.errors.join("\n"));
      } finally {
        await Promise.all(started.map((s) => s.stop()));
      }
    });
  });
}
