import assert from "node:assert/strict";
import type { LocalAccount } from "viem/accounts";
import { stateKeys } from "../../plugins/state/_wallet.ts";
import {
  blockNow,
  charged,
  creditsFunded,
  freshPort,
  retryUntilFinished,
  send,
  signedCall,
  startInstance,
  stepsReached,
  type Instance,
  type Rig,
  type Step,
} from "./_rig.ts";

/** What the payer ends with after a crash at `step`, as the harness sees it from outside. */
export interface Counts {
  /** Transfers from the payer to payTo. */
  charged: number;
  /** Answers the payer got (200, live or replayed to its retry). */
  answers: number;
  credits: number;
  /** Runs of the handler for this payment (the trace's `handled` lines). */
  handlerRuns: number;
  /** The stored record's version: 1 when the write was applied once, undefined when never. */
  written?: number;
}

/** What the harness measures after a crash at each step: the payer is charged exactly when it gets the answer. */
export const expected: Record<Step, Omit<Counts, "handlerRuns">> = {
  claimed: { charged: 0, answers: 0, credits: 0 },
  handled: { charged: 0, answers: 0, credits: 0 },
  "written-ahead": { charged: 0, answers: 0, credits: 0 },
  settled: { charged: 1, answers: 1, credits: 0, written: 1 },
  "effects-applied": { charged: 1, answers: 1, credits: 0, written: 1 },
};

/**
 * One paid `/v1/store` call by `payer` sent to `first`, which dies with SIGKILL at `step`; then `finisher()` gives
 * the instance the payer retries at (the same one restarted, or another already running on the same Redis).
 */
export async function crashAt(
  rig: Rig,
  step: Step,
  payer: LocalAccount,
  finisher: (dead: Instance) => Promise<Instance>,
  shared = false,
): Promise<Counts> {
  const first = await startInstance(rig, await freshPort(), step);
  const from = await blockNow(rig.devnet);
  const key = `crash-${step}`;
  const call = await signedCall(first, payer, `/v1/store?key=${key}&value=v&ttl=600`);
  const live = await send(first, call);
  assert.equal(live, undefined, `the instance died at ${step} before answering`);
  assert.equal(await first.exited, "SIGKILL");
  const other = await finisher(first);
  try {
    const last = await retryUntilFinished(other, call);
    const answers = (live as { status: number } | undefined)?.status === 200 || last?.status === 200 ? 1 : 0;
    if (last?.status === 402) {
      // Retried past its authorization's life: refused as expired, which charges nothing.
      assert.equal(last.body.reason, "invalid_exact_evm_payload_authorization_valid_before");
    } else if (last?.status !== 200) {
      assert.equal(last?.status, 409, JSON.stringify(last?.body));
      assert.match(last?.body.error.message, /nothing was charged|not charged/);
    } else {
      assert.equal(last.headers.get("x-payment-replayed"), "true");
      assert.equal(last.body.data.key, key);
    }
    const stored = await rig.store.get<{ version: number }>(stateKeys.value(payer.address.toLowerCase(), key));
    const moved = await charged(rig, payer, from);
    assert.equal(other.errors.length, 0, other.errors.join("\n"));
    return {
      charged: moved.count,
      answers,
      credits: await creditsFunded(rig, payer),
      handlerRuns: await stepsReached(rig, "handled", payer.address),
      ...(stored ? { written: stored.version } : {}),
    };
  } finally {
    // An instance started to finish this call goes with it; one shared by the file's tests stays.
    if (!shared) await other.stop();
  }
}

/** The payer's ledger adds up: every charge was answered or credited, nothing answered or written without one. */
export function assertBalanced(c: Counts) {
  assert.equal(c.charged, c.answers + c.credits, `charged ${c.charged} = answers ${c.answers} + credits ${c.credits}`);
  assert.ok(c.charged <= 1, "no double transfer");
  assert.equal(c.written ?? 0, c.charged - c.credits, "the write applied once per paid answer, never without one");
}
