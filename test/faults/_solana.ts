import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { walletOf, stateKeys } from "../../plugins/state/_wallet.ts";
import { startSolanaDevnet, type SolanaDevnet } from "../helpers/paid.ts";
import { redisMissing } from "../helpers/redis.ts";
import { challengeOf, newPaymentId, toHeader } from "../helpers/sign.ts";
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

/** The service's one payment option: exact on the local Solana chain, settled by its fee payer in process. */
const solanaEnv = (solana: SolanaDevnet): Record<string, string> => ({
  X402_OPTIONS: "solana-devnet",
  X402_SOLANA_DEVNET_ASSET: solana.usdc.address,
  X402_SOLANA_DEVNET_PAY_TO: solana.accounts.payTo.address,
  X402_SOLANA_DEVNET_RELAYER_KEY: solana.accounts.feePayer.secretKey,
  X402_SOLANA_DEVNET_RPC_URL: solana.rpcUrl,
});

/** A fresh payer holding test USDC on the local chain only: what leaves its token account is what it was charged. */
async function solanaPayer(solana: SolanaDevnet) {
  const signer = await generateKeyPairSigner();
  await solana.fund(signer.address, 1_000_000n);
  return signer;
}

/** A v2 exact payment (a partly signed transaction, by the real @x402/svm client) with the payer's payment identifier. */
async function signedSolanaCall(solana: SolanaDevnet, instance: Instance, payer: KeyPairSigner, path: string) {
  const required = await challengeOf(fetch, instance.url + path);
  const accepted = required.accepts.find((a: { network: string }) => a.network === solana.network);
  const { payload } = await new ExactSvmScheme(payer, { rpcUrl: solana.rpcUrl }).createPaymentPayload(2, accepted);
  const extensions = { "payment-identifier": { info: { required: false, id: newPaymentId() } } };
  const header = toHeader({ x402Version: 2, resource: required.resource, accepted, payload, extensions });
  return { path, header, nonce: "", price: BigInt(accepted.amount) };
}

/**
 * One test per step: a Solana-paid /v1/store call whose instance is killed with SIGKILL there; a minute passes (the
 * transaction's blockhash expires: it can land no more); the payer retries (same transaction, same identifier) at
 * the same instance restarted or at a second one on the same Redis. Counted on the chain: what left the payer's
 * token account = answers + credits funded, the write applied once per paid answer, the handler run at most once.
 */
export function solanaCrashTests(steps: Step[], finishedBy: "restart" | "other") {
  let rig: Rig;
  let solana: SolanaDevnet;
  let survivor: Instance | undefined;
  let env: Record<string, string>;
  before(async () => {
    if (redisMissing) return;
    [rig, solana] = await Promise.all([startRig(), startSolanaDevnet()]);
    env = solanaEnv(solana);
    if (finishedBy === "other") survivor = await startInstance(rig, await freshPort(), undefined, env);
  });
  after(async () => {
    await survivor?.stop();
    await Promise.all([rig?.stop(), solana?.stop()]);
  });
  const how = finishedBy === "restart" ? "restarted" : "the other instance finishes";
  for (const step of steps) {
    test(`solana killed ${when[step]}; ${how}: charged = answered + credited`, { skip: redisMissing }, async () => {
      const started: Instance[] = [];
      try {
        const payer = await solanaPayer(solana);
        const held = await solana.balance(payer.address);
        const first = await startInstance(rig, await freshPort(), step, env);
        started.push(first);
        const key = `solana-${step}`;
        const call = await signedSolanaCall(solana, first, payer, `/v1/store?key=${key}&value=v&ttl=600`);
        assert.equal(await send(first, call), undefined, `the instance died at ${step} before answering`);
        assert.equal(await first.exited, "SIGKILL");
        solana.node.skipMinute();
        const other = survivor ?? (await startInstance(rig, first.port, undefined, env));
        if (!survivor) started.push(other);
        const last = await retryUntilFinished(other, call);
        if (last?.status === 200) {
          assert.equal(last.headers.get("x-payment-replayed"), "true");
          assert.equal(last.body.data.key, key);
        } else {
          assert.equal(last?.status, 409, JSON.stringify(last?.body));
          assert.match(last?.body.error.message, /nothing was charged|not charged/);
        }
        const stored = await rig.store.get<{ version: number }>(stateKeys.value(walletOf(payer.address), key));
        const moved = held - (await solana.balance(payer.address));
        assert.equal(moved % call.price, 0n, "only whole prices leave the payer");
        const counts = {
          charged: Number(moved / call.price),
          answers: last?.status === 200 ? 1 : 0,
          credits: await creditsFunded(rig, payer, solana.network),
          ...(stored ? { written: stored.version } : {}),
        };
        assertBalanced({ ...counts, handlerRuns: 0 });
        assert.deepEqual(counts, expected[step]);
        const runs = await stepsReached(rig, "handled", payer.address);
        assert.equal(runs, step === "claimed" ? 0 : 1, "the handler ran once at most");
        assert.equal(other.errors.length, 0, other.errors.join("\n"));
      } finally {
        await Promise.all(started.map((s) => s.stop()));
      }
    });
  }
}
