import { appendFileSync } from "node:fs";

/**
 * Test-only: the fault harness (test/faults) names one step of a paid call with `X402_CRASH_AT`, and the process
 * kills itself there with SIGKILL, as a power cut would. `X402_CRASH_TRACE` names a file that gets one line per step
 * reached, so the harness counts handler runs. Both are unset in any real deployment: then this does nothing.
 */
export type CrashStep =
  | "claimed"
  | "handled"
  | "written-ahead"
  | "sent"
  | "settled"
  | "effects-applied"
  | "voucher-held";

const armed: { at?: string; trace?: string } = {};

export function armCrashPoints(at: string | undefined, trace: string | undefined) {
  armed.at = at;
  armed.trace = trace;
}

export function crashPoint(step: CrashStep, about = "") {
  if (armed.trace) appendFileSync(armed.trace, `${process.pid} ${step} ${about}\n`);
  if (armed.at === step) process.kill(process.pid, "SIGKILL");
}
