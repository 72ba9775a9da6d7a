import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import {
  computeChannelId,
  createBatchSettlementEIP3009DepositPayload,
  signVoucher,
} from "@x402/evm/batch-settlement/client";
import type { Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { stateKeys } from "../../plugins/state/_wallet.ts";
import { encodeHeader } from "../../core/x402/challenge.ts";
import { voucherReasons } from "../../core/x402/schemes/batch-settlement/voucher.ts";
import { createCredits } from "../../core/payment/credits.ts";
import { escrowOn } from "../helpers/channels.ts";
import { accountOf } from "../helpers/rail.ts";
import { redisMissing } from "../helpers/redis.ts";
import { newPaymentId } from "../helpers/sign.ts";
import { freshPort, startInstance, startRig, stepsReached, type Instance, type Rig } from "./_rig.ts";

/** The steps of a voucher-paid call where the process is killed (core/x402/schemes/batch-settlement/gate.ts). */
export type VoucherStep = "voucher-held" | "handled" | "written-ahead" | "settled" | "effects-applied";

const when: Record<VoucherStep, string> = {
  "voucher-held": "after the voucher is held on its channel, before the handler",
  handled: "after the handler, before the write-ahead record",
  "written-ahead": "after the write-ahead record, before the voucher's increment is committed",
  settled: "after the increment is committed, before the effects or the answer",
  "effects-applied": "after the effects, before the settled record",
};

/** Vouchers on, their channels in the rig's Redis; a held voucher's hold lapses after 10 s (maxTimeoutSeconds). */
const voucherEnv = (rig: Rig): Record<string, string> => ({
  X402_BATCH_SETTLEMENT: "on",
  X402_BATCH_AUTHORIZER_KEY: rig.devnet.accounts.payTo.privateKey,
  X402_BATCH_CLAIM_SECONDS: "0",
  X402_MAX_TIMEOUT_SECONDS: "10",
});

type Terms = PaymentRequirements & { extra: { receiverAuthorizer: Hex; withdrawDelay: number } };

async function termsOf(instance: Instance, path: string): Promise<Terms> {
  const res = await fetch(instance.url + path);
  const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
  return required.accepts.find((a: PaymentRequirements) => a.scheme === "batch-settlement");
}

/** A payer's channel, paid by hand: a deposit with its first voucher, then vouchers that carry a payment identifier. */
function channelOf(rig: Rig, account: PrivateKeyAccount) {
  const signer = toClientEvmSigner(account, escrowOn(rig.devnet).reader);
  let cumulative = 0n;
  const configOf = (terms: Terms) => ({
    payer: account.address,
    payerAuthorizer: account.address,
    receiver: terms.payTo as Hex,
    receiverAuthorizer: terms.extra.receiverAuthorizer,
    token: terms.asset as Hex,
    withdrawDelay: Number(terms.extra.withdrawDelay),
    salt: `0x${"ab".repeat(32)}` as Hex,
  });
  return {
    channelIdOf: (terms: Terms) => computeChannelId(configOf(terms), rig.devnet.network).toLowerCase(),
    async deposit(instance: Instance, path: string) {
      const accepted = await termsOf(instance, path);
      const max = String(cumulative + BigInt(accepted.amount));
      const { payload } = await createBatchSettlementEIP3009DepositPayload(
        signer,
        2,
        accepted,
        configOf(accepted),
        "1000000",
        max,
      );
      const res = await fetch(instance.url + path, {
        headers: { "payment-signature": encodeHeader({ x402Version: 2, accepted, payload } as PaymentPayload) },
      });
      assert.equal(res.status, 200, await res.text());
      cumulative = BigInt(max);
    },
    /** The next voucher for `path`, signed once: a retry sends the same header (without an identifier, it can never be answered again). */
    async voucher(instance: Instance, path: string, identified = true) {
      const accepted = await termsOf(instance, path);
      const max = String(cumulative + BigInt(accepted.amount));
      const channelId = computeChannelId(configOf(accepted), rig.devnet.network);
      const payload = {
        type: "voucher",
        channelConfig: configOf(accepted),
        voucher: await signVoucher(signer, channelId, max, rig.devnet.network),
      };
      const extensions = identified ? { "payment-identifier": { info: { required: false, id: newPaymentId() } } } : {};
      return { path, header: encodeHeader({ x402Version: 2, accepted, payload, extensions }), price: accepted.amount };
    },
    /** A voucher answered: the next one signs on top of it. */
    paid(amount: bigint) {
      cumulative += amount;
    },
  };
}

/** What the channel store says the channel was charged (the cumulative amount claims will take). */
function channelCharged(rig: Rig, channelId: string): bigint {
  const key = `x402:batch:${rig.devnet.network}:server:channel:${channelId}`;
  const port = new URL(rig.redis.url).port;
  const raw = spawnSync("redis-cli", ["-p", port, "--raw", "GET", key], { encoding: "utf8" }).stdout.trim();
  return raw ? BigInt(JSON.parse(raw).chargedCumulativeAmount) : 0n;
}

type Sent = { status: number; body: any; headers: Headers } | undefined;
async function send(instance: Instance, call: { path: string; header: string }): Promise<Sent> {
  try {
    const res = await fetch(instance.url + call.path, { headers: { "payment-signature": call.header } });
    return { status: res.status, body: await res.json(), headers: res.headers };
  } catch {
    return undefined;
  }
}

/** Retries the same voucher while its channel is held or its charge is being finished; the last answer. */
async function retryUntilFinished(instance: Instance, call: { path: string; header: string }) {
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    const res = await send(instance, call);
    const waiting =
      res === undefined ||
      res.body?.error?.code === "settlement_in_progress" ||
      (res.status === 402 && res.body?.reason === voucherReasons.busy);
    if (!waiting || Date.now() > giveUpAt) return res;
    const seconds = Number(res?.headers.get("retry-after") ?? 1);
    await new Promise((r) => setTimeout(r, Math.min(seconds, 2) * 1000));
  }
}

/**
 * One test per step: a voucher-paid /v1/store call whose instance is killed with SIGKILL there, then retried (the
 * same voucher, the same payment identifier) at the same instance restarted, or at a second one on the same Redis.
 * A voucher is never lost to a crash: every row ends with one answer and one increment charged on the channel.
 */
export function voucherCrashTests(steps: VoucherStep[], finishedBy: "restart" | "other") {
  let rig: Rig;
  let survivor: Instance | undefined;
  before(async () => {
    if (redisMissing) return;
    rig = await startRig();
    if (finishedBy === "other") survivor = await startInstance(rig, await freshPort(), undefined, voucherEnv(rig));
  });
  after(async () => {
    await survivor?.stop();
    await rig?.stop();
  });
  const how = finishedBy === "restart" ? "restarted" : "the other instance finishes";
  steps.forEach((step, i) => {
    test(`voucher killed ${when[step]}; ${how}: charged = answered, once`, { skip: redisMissing }, async () => {
      const account = accountOf(rig.devnet, i) as PrivateKeyAccount;
      const channel = channelOf(rig, account);
      // The deposit goes through an instance that is not armed; in the restart case it is gone before the crash.
      const started: Instance[] = [];
      const own = async (port: number, at?: VoucherStep) => {
        const instance = await startInstance(rig, port, at, voucherEnv(rig));
        started.push(instance);
        return instance;
      };
      try {
        const depositor = survivor ?? (await own(await freshPort()));
        await channel.deposit(depositor, `/v1/store?key=deposit-${step}&value=d&ttl=600`);
        if (!survivor) await depositor.stop();
        const runsBefore = await stepsReached(rig, "handled", account.address);

        const first = await own(await freshPort(), step);
        const key = `voucher-${step}`;
        const call = await channel.voucher(first, `/v1/store?key=${key}&value=v&ttl=600`);
        const channelId = channel.channelIdOf(await termsOf(first, call.path));
        const chargedBefore = channelCharged(rig, channelId);
        assert.equal(await send(first, call), undefined, `the instance died at ${step} before answering`);
        assert.equal(await first.exited, "SIGKILL");
        const other = survivor ?? (await own(first.port));
        const last = await retryUntilFinished(other, call);
        assert.equal(last?.status, 200, JSON.stringify(last?.body));
        assert.equal(last.body.data.key, key);
        const replayed = last.headers.get("x-payment-replayed") === "true";
        const stored = await rig.store.get<{ version: number }>(stateKeys.value(account.address.toLowerCase(), key));
        const charged = (channelCharged(rig, channelId) - chargedBefore) / BigInt(call.price);
        const credits = (await rig.store.keys(`x402:funded:${rig.devnet.network}:voucher:${channelId}`)).length;
        const runs = (await stepsReached(rig, "handled", account.address)) - runsBefore;
        assert.deepEqual(
          { charged, answers: 1, credits, written: stored?.version },
          { charged: 1n, answers: 1, credits: 0, written: 1 },
        );
        // Committed before the crash: the answer kept is replayed, its handler not run again.
        const committed = step === "settled" || step === "effects-applied";
        assert.equal(replayed, committed, "the answer replayed exactly when the increment was committed");
        assert.equal(runs, step === "voucher-held" ? 1 : committed ? 1 : 2, "handler runs");
        assert.equal(other.errors.length, 0, other.errors.join("\n"));
      } finally {
        await Promise.all(started.map((i) => i.stop()));
      }
    });
  });
}

/**
 * A voucher sent without a payment identifier can never be answered again: killed after its increment was committed,
 * the instance restarted finishes it with the price credited to a code listed to its payer, and keeps no answer.
 */
export function unidentifiedVoucherCredited() {
  test("voucher without a payment identifier killed after its commit; restarted: its price credited to its payer, charged once", {
    skip: redisMissing,
  }, async () => {
    const rig = await startRig();
    const started: Instance[] = [];
    try {
      const account = accountOf(rig.devnet, 6) as PrivateKeyAccount;
      const channel = channelOf(rig, account);
      const depositor = await startInstance(rig, await freshPort(), undefined, voucherEnv(rig));
      started.push(depositor);
      await channel.deposit(depositor, "/v1/store?key=deposit-unidentified&value=d&ttl=600");
      await depositor.stop();
      const runsBefore = await stepsReached(rig, "handled", account.address);

      const first = await startInstance(rig, await freshPort(), "settled", voucherEnv(rig));
      started.push(first);
      const call = await channel.voucher(first, "/v1/store?key=unidentified&value=v&ttl=600", false);
      const channelId = channel.channelIdOf(await termsOf(first, call.path));
      const chargedBefore = channelCharged(rig, channelId);
      assert.equal(await send(first, call), undefined, "the instance died after the commit, before answering");
      assert.equal(await first.exited, "SIGKILL");
      const restarted = await startInstance(rig, first.port, undefined, voucherEnv(rig));
      started.push(restarted);

      const credits = createCredits(rig.store);
      const giveUpAt = Date.now() + 30_000;
      let listed = await credits.issuedTo(account.address);
      while (listed.length === 0 && Date.now() < giveUpAt) {
        await new Promise((r) => setTimeout(r, 250));
        listed = await credits.issuedTo(account.address);
      }
      const charged = (channelCharged(rig, channelId) - chargedBefore) / BigInt(call.price);
      const funded = (await rig.store.keys(`x402:funded:${rig.devnet.network}:voucher:${channelId}`)).length;
      const kept = await rig.store.keys(`x402:claim:${rig.devnet.network}:voucher:${channelId}`);
      const stored = await rig.store.get(stateKeys.value(account.address.toLowerCase(), "unidentified"));
      const runs = (await stepsReached(rig, "handled", account.address)) - runsBefore;
      assert.deepEqual(
        { charged, funded, listed: listed.map((c) => c.balance), runs, written: stored !== undefined },
        { charged: 1n, funded: 1, listed: [call.price], runs: 1, written: false },
      );
      const finished = await Promise.all(kept.map((k) => rig.store.get<{ state: string }>(k)));
      assert.deepEqual(
        finished.map((r) => r?.state),
        ["credited"],
        "no answer kept: nobody can ask for it",
      );
      assert.equal(restarted.errors.length, 0, restarted.errors.join("\n"));
    } finally {
      await Promise.all(started.map((i) => i.stop()));
      await rig.stop();
    }
  });
}

/**
 * Vouchers an instance accepted and had not claimed when it was killed are in Redis: the instance started after it
 * claims them on-chain (its claim timer), to the unit.
 */
export function unclaimedVouchersSurvive() {
  test("vouchers accepted and not claimed when the instance is killed: its successor claims them all on-chain", {
    skip: redisMissing,
  }, async () => {
    const rig = await startRig();
    const started: Instance[] = [];
    try {
      const account = accountOf(rig.devnet, 5) as PrivateKeyAccount;
      const channel = channelOf(rig, account);
      const first = await startInstance(rig, await freshPort(), undefined, voucherEnv(rig));
      started.push(first);
      const path = (i: number) => `/v1/store?key=unclaimed-${i}&value=v&ttl=600`;
      await channel.deposit(first, path(0));
      for (let i = 1; i <= 3; i++) {
        const res = await send(first, await channel.voucher(first, path(i)));
        assert.equal(res?.status, 200);
        channel.paid(BigInt((await termsOf(first, path(i))).amount));
      }
      const channelId = channel.channelIdOf(await termsOf(first, path(0))) as Hex;
      const charged = channelCharged(rig, channelId);
      assert.equal((await escrowOn(rig.devnet).channel(channelId)).totalClaimed, 0n);
      first.child.kill("SIGKILL");
      await first.exited;
      started.push(
        await startInstance(rig, await freshPort(), undefined, { ...voucherEnv(rig), X402_BATCH_CLAIM_SECONDS: "1" }),
      );
      const deadline = Date.now() + 30_000;
      let claimed = 0n;
      while (claimed < charged && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        claimed = (await escrowOn(rig.devnet).channel(channelId)).totalClaimed;
      }
      assert.equal(claimed, charged, "every voucher accepted before the kill is claimed");
      assert.equal(charged, 4n * BigInt((await termsOf(started[1], path(0))).amount));
    } finally {
      await Promise.all(started.map((i) => i.stop()));
      await rig.stop();
    }
  });
}
