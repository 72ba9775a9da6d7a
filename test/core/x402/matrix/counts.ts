import assert from "node:assert/strict";
import { holdRun, runsOf, startedBefore, writesOf } from "./plugin.ts";
import { creditCodesOf, type Answer, type Payer, type Payment, type Way } from "./way.ts";
import type { World } from "./world.ts";

/** What the service spent on every chain from now on: JSON-RPC requests, sends, relayer reverts, fee-payer lamports. */
export async function meter(w: World) {
  const sides = [w.evm, w.evm18];
  const blocks = await Promise.all(sides.map((s) => s.block()));
  const rpc = () => w.evm.rpcCalls() + w.evm18.rpcCalls() + w.svm.rpcCalls();
  const sends = () => w.evm.sends() + w.evm18.sends() + w.svm.sends();
  const [rpc0, sends0, lamports0] = [rpc(), sends(), await w.svm.feePayerLamports()];
  return async () => ({
    rpc: rpc() - rpc0,
    sends: sends() - sends0,
    reverted: (await Promise.all(sides.map((s, i) => s.relayerReverts(blocks[i])))).reduce((n, r) => n + r.count, 0),
    lamports: lamports0 - (await w.svm.feePayerLamports()),
  });
}

/** The value of the credit codes an answer hands out (the payer's own code, when it paid with one, excluded). */
export async function creditedBy(w: World, answer: Answer, payer?: Payer) {
  const own = (payer as { code?: string } | undefined)?.code;
  let sum = 0n;
  for (const code of creditCodesOf(answer).filter((c) => c !== own)) sum += (await w.one.credits.balance(code)) ?? 0n;
  return sum;
}

/** A value in the option's units, in USDC's six decimals (what credits are counted in). */
export const inUsdc = (way: Way, value: bigint) => value / 10n ** BigInt(way.decimals - 6);

export const sumRuns = (keys: string[]) => keys.reduce((n, k) => n + runsOf(k), 0);

export async function assertRunsAndWrites(w: World, keys: string[], runs: number, writes: number, why = "") {
  for (const key of keys) {
    assert.equal(runsOf(key), runs, `handler runs of ${key}${why}`);
    assert.equal(await writesOf(w.one.store, key), writes, `writes of ${key}${why}`);
  }
}

/** Resolves once `n` of the promises have settled. */
export function settled<T>(promises: Promise<T>[], n: number) {
  let count = 0;
  return new Promise<void>((resolve) => {
    for (const p of promises) void p.finally(() => ++count === n && resolve()).catch(() => undefined);
  });
}

/**
 * Sends every payment at once, alternating between the instances, with the first handler to start held until every
 * other copy was answered (or reached a handler too): a reservation that lets a second copy through cannot hide
 * behind a fast handler.
 */
export async function race(w: World, payments: Payment[], key: string) {
  const hold = holdRun(key);
  const answers = payments.map((p, i) => p.send(w.instances[i % 2]));
  await startedBefore(
    hold,
    Promise.all(answers).then((a) => a[0]),
  );
  await Promise.race([hold.twice, settled(answers, answers.length - 1)]);
  hold.release();
  return Promise.all(answers);
}
