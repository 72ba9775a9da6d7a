import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { PaymentRequired } from "@x402/core/types";
import { PERMIT2_ADDRESS } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { createPublicClient, createWalletClient, http, maxUint256, parseAbiItem, type Address } from "viem";
import type { LocalAccount } from "viem/accounts";
import { stateKeys } from "../../plugins/state/_wallet.ts";
import { encodeHeader } from "../../core/x402/challenge.ts";
import { devnetChain, testUsdcAbi } from "../../core/x402/devnet/index.ts";
import { accountOf } from "../helpers/rail.ts";
import { redisMissing } from "../helpers/redis.ts";
import { newPaymentId } from "../helpers/sign.ts";
import {
  blockNow,
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

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/** The test DAI moved from `payer` to payTo since `fromBlock`. */
async function daiCharged(rig: Rig, payer: Address, fromBlock: bigint) {
  const logs = await createPublicClient({ transport: http(rig.devnet.rpcUrl) }).getLogs({
    address: rig.devnet.dai.address,
    event: transfer,
    args: { from: payer, to: rig.devnet.accounts.payTo.address },
    fromBlock,
  });
  return logs.map((l) => l.args.value!);
}

/** The one-time step of a wallet paying a token without EIP-3009: approve Permit2. */
async function approvePermit2(rig: Rig, account: LocalAccount) {
  const transport = http(rig.devnet.rpcUrl);
  const own = createWalletClient({ chain: devnetChain(rig.devnet.rpcUrl), transport, account });
  const hash = await own.writeContract({
    address: rig.devnet.dai.address,
    abi: testUsdcAbi,
    functionName: "approve",
    args: [PERMIT2_ADDRESS, maxUint256],
  });
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash });
}

/** An exact Permit2 payment signed by @x402/evm's own exact client, with the payer's payment identifier. */
async function signedPermit2(instance: Instance, account: LocalAccount, path: string) {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(account)).setSpendControls(false);
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
        await approvePermit2(rig, account);
        const first = await startInstance(rig, await freshPort(), step, daiEnv(rig));
        started.push(first);
        const from = await blockNow(rig.devnet);
        const key = `permit2-${step}`;
        const { call, price } = await signedPermit2(first, account, `/v1/store?key=${key}&value=v&ttl=600`);
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
        const moved = await daiCharged(rig, account.address, from);
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
